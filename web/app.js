// A minimal client of the two APIs: the chat page proper is built in its own issue.
const apiHistory = [];
const log = document.getElementById("log");
const form = document.getElementById("ask");
const input = document.getElementById("message");

function show(text, kind) {
  const item = document.createElement("li");
  item.className = kind;
  item.textContent = text;
  log.append(item);
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const typed = input.value.trim();
  if (!typed) return;
  show(typed, "user");
  try {
    const { question } = await post("/api/chat/reformulate", { userMessage: typed, conversation: apiHistory });
    const reply = await post("/api/chat", { userMessage: question, conversation: apiHistory });
    apiHistory.push({ role: "user", content: question }, { role: "assistant", content: reply.answer });
    const titles = reply.sources.map((s) => s.title).join(", ");
    show(titles ? `${reply.answer}\nSources: ${titles}` : reply.answer, "assistant");
    input.value = "";
  } catch (error) {
    show(error.message, "error");
  }
});
