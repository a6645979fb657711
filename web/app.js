// The chat page. It keeps two histories, as the design asks: `api` holds what the back end
// needs (each user turn as the standalone question it was searched with), `shown` holds what
// the user typed and what came back. Both live in sessionStorage, so a reload keeps the chat.

const STORE = "recipe-chat.v1";
// The most recent API messages sent with a request. The back end reads only its own, shorter
// window (HISTORY_MAX_MESSAGES) and refuses a conversation over MAX_CONVERSATION_MESSAGES, so
// a long chat must not send everything it has kept.
const API_WINDOW = 20;
const $ = (id) => document.getElementById(id);
const els = {
  chat: $("chat"), log: $("log"), empty: $("empty"), announce: $("announce"), form: $("ask"),
  input: $("message"), send: $("send"), status: $("status"), error: $("error"), errorText: $("error-text"),
  retry: $("retry"), newChat: $("new-chat"), dialog: $("recipe"), title: $("recipe-title"),
  facts: $("recipe-facts"), description: $("recipe-description"), body: $("recipe-body"),
  ingredients: $("recipe-ingredients"), steps: $("recipe-steps"), close: $("recipe-close"),
};

let state = load();
// The request under way, if any: "New chat" aborts it, so that its answer never lands in the new chat.
let running = null;
// Which recipe the panel shows: an answer for a recipe the user has since left is dropped.
let recipeShown = 0;

function load() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORE));
    if (Array.isArray(saved?.api) && Array.isArray(saved?.shown)) return saved;
  } catch {
    // A damaged entry starts a new chat rather than breaking the page.
  }
  return { api: [], shown: [] };
}

function save() {
  sessionStorage.setItem(STORE, JSON.stringify(state));
}

class ApiError extends Error {}

async function call(path, options = {}) {
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError("The app could not be reached. Check your connection and try again.");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(data.error || `The app answered with an error (${response.status}).`);
  return data;
}

const post = (path, body, signal) =>
  call(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal,
  });

// The answer as it is written: POST /api/chat with `Accept: text/event-stream` sends
// `{"delta"}` events, then the whole answer with its sources, or an `{"error"}` event if the
// answer fails once begun. Static Web Apps passes only this type of response on as it comes.
async function streamAnswer(body, signal, onDelta) {
  let response;
  try {
    response = await fetch("/api/chat", {
      method: "POST", body: JSON.stringify(body), signal,
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError("The app could not be reached. Check your connection and try again.");
  }
  if (!response.ok || !response.body) {
    const data = await response.json().catch(() => ({}));
    throw new ApiError(data.error || `The app answered with an error (${response.status}).`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let whole = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const lines = buffer.slice(0, end).split("\n");
      buffer = buffer.slice(end + 2);
      const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trim()).join("");
      if (!data) continue;
      const event = JSON.parse(data);
      if (event.error) throw new ApiError(event.error);
      if (typeof event.delta === "string") onDelta(event.delta);
      else if (typeof event.answer === "string") whole = event;
    }
  }
  if (!whole) throw new ApiError("The answer was cut off. Please try again.");
  return whole;
}

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function turn(entry) {
  if (entry.role === "user") {
    const item = element("li", { className: "turn user" },
      element("h2", { className: "visually-hidden", textContent: "You asked" }),
      element("p", { className: "text", textContent: entry.text }));
    if (entry.searched) {
      const searched = element("details", { className: "searched" },
        element("summary", { textContent: "Searched for" }), element("p", { textContent: entry.searched }));
      item.append(searched);
    }
    return item;
  }
  const item = element("li", { className: "turn assistant" },
    element("h2", { className: "visually-hidden", textContent: "The assistant answered" }),
    element("p", { className: "text", textContent: entry.text }));
  if (entry.sources?.length) {
    const list = element("ul", { className: "sources" });
    list.setAttribute("aria-label", "Sources");
    for (const source of entry.sources) {
      const button = element("button", { type: "button", className: "source", textContent: source.title });
      button.dataset.recipeId = source.id;
      list.append(element("li", {}, button));
    }
    item.append(list);
  }
  return item;
}

// Draws the turns not yet on screen, so that what the user opened (a "Searched for" line) and
// where the focus is stay as they were.
function render() {
  if (els.log.children.length > state.shown.length) els.log.replaceChildren();
  els.log.append(...state.shown.slice(els.log.children.length).map(turn));
  els.empty.hidden = state.shown.length > 0;
  reveal();
}

// Scroll to the end of the chat, unless the latest question would then be out of sight: a long
// answer is shown from its question down.
function reveal() {
  const last = els.log.lastElementChild;
  if (!last) return;
  const question = last.previousElementSibling ?? last;
  els.chat.scrollTop = els.chat.scrollHeight;
  if (question.getBoundingClientRect().top < els.chat.getBoundingClientRect().top) {
    question.scrollIntoView({ block: "start" });
  }
}

function setBusy(on, message = "") {
  els.send.disabled = on;
  els.log.setAttribute("aria-busy", String(on));
  els.status.textContent = message;
  document.body.classList.toggle("busy", on);
}

function showError(message) {
  els.errorText.textContent = message;
  els.error.hidden = false;
}

function announce(text) {
  // Emptied first, so that an answer equal to the previous one is read out too.
  els.announce.textContent = "";
  requestAnimationFrame(() => { els.announce.textContent = text; });
}

async function ask(typed) {
  if (running || !typed.trim()) return;
  const request = (running = new AbortController());
  let draft = null;
  els.error.hidden = true;
  setBusy(true, "Understanding your question…");
  try {
    const conversation = state.api.slice(-API_WINDOW);
    // What reformulate read of the question (the text to search, its filters) goes back to
    // /api/chat, which then does not read it again: one model call for both requests.
    const { question, searched, filters } = await post(
      "/api/chat/reformulate", { userMessage: typed, conversation }, request.signal);
    setBusy(true, "Looking through the recipes…");
    // The exchange is drawn as a draft while the answer streams in; it enters the histories
    // (and is drawn for good, with its source buttons) only once the answer is complete.
    const written = element("p", { className: "text" });
    draft = [
      turn({ role: "user", text: typed, searched: question }),
      element("li", { className: "turn assistant writing" },
        element("h2", { className: "visually-hidden", textContent: "The assistant is answering" }), written),
    ];
    els.log.append(...draft);
    els.empty.hidden = true;
    reveal();
    const asked = { userMessage: question, conversation, searched, filters };
    const reply = await streamAnswer(asked, request.signal, (text) => {
      if (!written.textContent) setBusy(true, "Writing the answer…");
      written.textContent += text;
      reveal();
    });
    for (const node of draft) node.remove();
    draft = null;
    // Only a complete exchange enters the histories: a failure leaves both as they were.
    state.api.push({ role: "user", content: question }, { role: "assistant", content: reply.answer });
    state.shown.push(
      { role: "user", text: typed, searched: question },
      { role: "assistant", text: reply.answer, sources: reply.sources },
    );
    save();
    render();
    els.input.value = "";
    announce(reply.answer);
  } catch (error) {
    for (const node of draft ?? []) node.remove();
    if (request.signal.aborted) return;  // "New chat" was pressed: it has reset the page already.
    showError(error instanceof ApiError ? error.message : "Something went wrong on this page. Please try again.");
  } finally {
    if (running === request) {
      running = null;
      setBusy(false);
    }
  }
  els.input.focus();
}

function minutes(value) {
  if (value == null) return null;
  return value >= 60 ? `${Math.floor(value / 60)} h ${value % 60 ? `${value % 60} min` : ""}`.trim() : `${value} min`;
}

function fill(list, items) {
  list.replaceChildren(...items.map((text) => element("li", { textContent: text })));
}

function showRecipe(recipe) {
  els.title.textContent = recipe.title;
  const diets = { vegetarian: "vegetarian", vegan: "vegan", gluten_free: "gluten-free", dairy_free: "dairy-free" };
  const facts = [
    ["Prep", minutes(recipe.prep_minutes)], ["Cook", minutes(recipe.cook_minutes)],
    ["Total", minutes(recipe.total_minutes)], ["Serves", recipe.servings],
  ].filter(([, value]) => value).map(([label, value]) => `${label}: ${value}`);
  const labels = Object.entries(diets).filter(([flag]) => recipe[flag]).map(([, label]) => label);
  els.facts.textContent = [...facts, ...labels].join(" · ");
  els.description.textContent = recipe.description ?? "";
  fill(els.ingredients, recipe.ingredients ?? []);
  fill(els.steps, recipe.steps ?? []);
  els.body.hidden = false;
}

async function openRecipe(button) {
  const shown = ++recipeShown;
  els.dialog.returnFocus = button;
  els.title.textContent = button.textContent;
  els.facts.textContent = "";
  els.description.textContent = "Loading the recipe…";
  els.body.hidden = true;
  els.dialog.showModal();
  els.title.focus();
  try {
    const recipe = await call(`/api/recipes/${encodeURIComponent(button.dataset.recipeId)}`);
    if (shown === recipeShown) showRecipe(recipe);
  } catch (error) {
    // What the answer gave (the source's title) stays, with the server's reason.
    if (shown !== recipeShown) return;
    const reason = error instanceof ApiError ? error.message : "Something went wrong on this page.";
    els.description.textContent = `The full recipe could not be loaded: ${reason}`;
  }
}

els.form.addEventListener("submit", (event) => {
  event.preventDefault();
  ask(els.input.value);
});

els.input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    ask(els.input.value);
  }
});

els.retry.addEventListener("click", () => ask(els.input.value));

els.newChat.addEventListener("click", () => {
  running?.abort();
  running = null;
  setBusy(false);
  state = { api: [], shown: [] };
  sessionStorage.removeItem(STORE);
  els.error.hidden = true;
  els.announce.textContent = "";
  render();
  els.input.focus();
});

els.log.addEventListener("click", (event) => {
  const button = event.target.closest("button.source");
  if (button) openRecipe(button);
});

els.close.addEventListener("click", () => els.dialog.close());
els.dialog.addEventListener("close", () => {
  recipeShown++;
  els.dialog.returnFocus?.focus();
});

render();
