// The chat page. It keeps two histories, as the design asks: `api` holds what the back end
// needs (each user turn as the standalone question it was searched with), `shown` holds what
// the user typed and what came back. Both live in sessionStorage, so a reload keeps the chat.

const STORE = "recipe-chat.v1";
const $ = (id) => document.getElementById(id);
const els = {
  log: $("log"), empty: $("empty"), announce: $("announce"), form: $("ask"), input: $("message"),
  send: $("send"), status: $("status"), error: $("error"), errorText: $("error-text"), retry: $("retry"),
  newChat: $("new-chat"), dialog: $("recipe"), title: $("recipe-title"), facts: $("recipe-facts"),
  description: $("recipe-description"), ingredients: $("recipe-ingredients"), steps: $("recipe-steps"),
  close: $("recipe-close"),
};

let state = load();
let busy = false;

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
  } catch {
    throw new ApiError("The app could not be reached. Check your connection and try again.");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(data.error || `The app answered with an error (${response.status}).`);
  return data;
}

const post = (path, body) =>
  call(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function turn(entry) {
  if (entry.role === "user") {
    const item = element("li", { className: "turn user" }, element("p", { className: "text", textContent: entry.text }));
    if (entry.searched) {
      const searched = element("details", { className: "searched" },
        element("summary", { textContent: "Searched for" }), element("p", { textContent: entry.searched }));
      item.append(searched);
    }
    return item;
  }
  const item = element("li", { className: "turn assistant" }, element("p", { className: "text", textContent: entry.text }));
  if (entry.sources?.length) {
    const list = element("ul", { className: "sources", ariaLabel: "Sources" });
    for (const source of entry.sources) {
      const button = element("button", { type: "button", className: "source", textContent: source.title });
      button.dataset.recipeId = source.id;
      list.append(element("li", {}, button));
    }
    item.append(list);
  }
  return item;
}

function render() {
  els.log.replaceChildren(...state.shown.map(turn));
  els.empty.hidden = state.shown.length > 0;
}

function setBusy(on, message = "") {
  busy = on;
  els.send.disabled = on;
  els.input.setAttribute("aria-busy", String(on));
  els.status.textContent = message;
  document.body.classList.toggle("busy", on);
}

function showError(message) {
  els.errorText.textContent = message;
  els.error.hidden = false;
}

async function ask(typed) {
  if (busy || !typed.trim()) return;
  els.error.hidden = true;
  setBusy(true, "Understanding your question…");
  try {
    const conversation = state.api;
    const { question } = await post("/api/chat/reformulate", { userMessage: typed, conversation });
    setBusy(true, "Looking through the recipes…");
    const reply = await post("/api/chat", { userMessage: question, conversation });
    // Only a complete exchange enters the histories: a failure leaves both as they were.
    state.api.push({ role: "user", content: question }, { role: "assistant", content: reply.answer });
    state.shown.push(
      { role: "user", text: typed, searched: question },
      { role: "assistant", text: reply.answer, sources: reply.sources },
    );
    save();
    render();
    els.input.value = "";
    els.announce.textContent = reply.answer;
    setBusy(false);
  } catch (error) {
    setBusy(false);
    showError(error instanceof ApiError ? error.message : "Something went wrong on this page. Please try again.");
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

async function openRecipe(id, opener) {
  els.dialog.returnFocus = opener;
  els.title.textContent = "Loading…";
  els.facts.textContent = els.description.textContent = "";
  fill(els.ingredients, []);
  fill(els.steps, []);
  els.dialog.showModal();
  els.title.focus();
  try {
    const recipe = await call(`/api/recipes/${encodeURIComponent(id)}`);
    els.title.textContent = recipe.title;
    const diets = { vegetarian: "vegetarian", vegan: "vegan", gluten_free: "gluten-free", dairy_free: "dairy-free" };
    const facts = [
      ["Prep", minutes(recipe.prep_minutes)], ["Cook", minutes(recipe.cook_minutes)],
      ["Total", minutes(recipe.total_minutes)], ["Serves", recipe.servings],
    ].filter(([, value]) => value).map(([label, value]) => `${label}: ${value}`);
    const labels = Object.entries(diets).filter(([flag]) => recipe[flag]).map(([, label]) => label);
    els.facts.textContent = [...facts, ...labels].join(" · ");
    els.description.textContent = recipe.description;
    fill(els.ingredients, recipe.ingredients);
    fill(els.steps, recipe.steps);
  } catch (error) {
    els.title.textContent = "This recipe could not be shown";
    els.description.textContent = error.message;
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
  state = { api: [], shown: [] };
  sessionStorage.removeItem(STORE);
  els.error.hidden = true;
  els.announce.textContent = "";
  render();
  els.input.focus();
});

els.log.addEventListener("click", (event) => {
  const button = event.target.closest("button.source");
  if (button) openRecipe(button.dataset.recipeId, button);
});

els.close.addEventListener("click", () => els.dialog.close());
els.dialog.addEventListener("close", () => els.dialog.returnFocus?.focus());

render();
