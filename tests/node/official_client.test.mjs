// The official JS client of the AI chat protocol, @microsoft/ai-chat-protocol, against the
// local host: both of its operations, a first turn and a follow-up built the way its README
// builds one, and errors it can read. tests/test_official_client.py starts the local host
// (embedded catalog, answers from the recipes' data: no model, so every answer is the same
// for the same question) and runs this file with `node --test`, the endpoint in RECIPE_CHAT_API.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AIChatProtocolClient } from "@microsoft/ai-chat-protocol";

const endpoint = process.env.RECIPE_CHAT_API;
assert.ok(endpoint, "RECIPE_CHAT_API must name the chat endpoint, e.g. http://127.0.0.1:7071/api/chat");
const client = new AIChatProtocolClient(endpoint);

const FIRST = { role: "user", content: "I want something vegetarian" };
const FOLLOW_UP = { role: "user", content: "From those, which is the quickest to cook?" };

function cited(text) {
  return [...text.matchAll(/\[([a-z0-9-]+)\]/g)].map((match) => match[1]);
}

function searchedFor(context) {
  const [step] = context.thoughts.filter((t) => t.title === "Generated search query");
  return step.description;
}

async function streamed(messages, options) {
  const deltas = [];
  for await (const delta of await client.getStreamedCompletion(messages, options)) {
    deltas.push(delta);
  }
  return deltas;
}

test("getCompletion: a first turn with no options gets a message and its context", async () => {
  // The README's first call: its sessionState is still undefined, so the body is only `messages`.
  const result = await client.getCompletion([FIRST]);
  assert.equal(result.message.role, "assistant");
  assert.ok(cited(result.message.content).length > 0, result.message.content);
  assert.ok(result.context.data_points.text.length > 0);
  assert.equal(result.context.finish_reason, "stop");
  assert.equal(result.sessionState, null);
});

test("getCompletion: a follow-up built as [...messages, result.message, user] keeps sessionState", async () => {
  const sessionState = { conversation: "c-1", turns: 1 };
  const messages = [FIRST];
  const first = await client.getCompletion(messages, { sessionState });
  assert.deepEqual(first.sessionState, sessionState);

  const second = await client.getCompletion([...messages, first.message, FOLLOW_UP], { sessionState });
  assert.deepEqual(second.sessionState, sessionState);
  assert.equal(second.message.role, "assistant");
  // The follow-up was resolved against the first answer's recipes before the search.
  const searched = searchedFor(second.context);
  assert.notEqual(searched, FOLLOW_UP.content);
  const named = cited(first.message.content);
  const answered = cited(second.message.content);
  assert.ok(answered.length > 0 && answered.every((id) => named.includes(id)), `${named} / ${answered}`);
});

test("getStreamedCompletion: role, context and sessionState first, then the same answer piece by piece", async () => {
  const sessionState = { conversation: "c-2" };
  const whole = await client.getCompletion([FIRST], { sessionState });
  const deltas = await streamed([FIRST], { sessionState });

  const [opening, ...rest] = deltas;
  assert.equal(opening.delta.role, "assistant");
  assert.deepEqual(opening.sessionState, sessionState);
  assert.deepEqual(opening.context.data_points, whole.context.data_points);
  const text = rest.map((d) => d.delta.content ?? "").join("");
  assert.equal(text, whole.message.content);
  assert.ok(rest.length > 1, "the answer comes in more than one piece");
  assert.equal(deltas.at(-1).context.finish_reason, "stop");

  // And a follow-up, streamed.
  const followUp = await streamed([FIRST, whole.message, FOLLOW_UP], { sessionState });
  const answer = followUp.map((d) => d.delta.content ?? "").join("");
  assert.ok(cited(answer).length > 0, answer);
});

test("a system message is allowed, and the thoughts say it was not given to the model", async () => {
  const system = { role: "system", content: "Answer in French." };
  for (const options of [{ sessionState: "s" }, {}]) {
    const result = await client.getCompletion([system, FIRST], options);
    assert.equal(result.message.role, "assistant");
    const [note] = result.context.thoughts.filter((t) => t.title === "Request fields not used");
    assert.match(note.description, /messages\[0\]/);
  }
});

test("errors come as {code, message}, which the client throws, from both operations", async () => {
  const blank = { role: "user", content: "   " };
  for (const call of [
    () => client.getCompletion([blank]),
    () => client.getCompletion([blank], { sessionState: { any: "thing" } }),
    () => streamed([blank]),
  ]) {
    await assert.rejects(call, (error) => {
      assert.equal(error.code, "invalid_request");
      assert.equal(error.message, "messages: the last message must not be empty.");
      return true;
    });
  }
  // A known override of the wrong type is named.
  await assert.rejects(
    () => client.getCompletion([FIRST], { context: { overrides: { top: "three" } }, sessionState: 1 }),
    (error) => error.code === "invalid_request" && error.message.startsWith("context.overrides.top:"),
  );
});
