// The GiftGenius chat page: talks to the /v1 API with the key the person pasted.
// Every word shown comes from the catalogue (the "words" JSON the page carries); every
// piece of model or user text is put in with textContent, never as HTML.
"use strict";

(() => {
  const WORDS = JSON.parse(document.getElementById("words").textContent);
  const LANG = document.documentElement.lang;
  const STORE = "giftgenius.key";
  const plural = new Intl.PluralRules(LANG);
  const $ = (id) => document.getElementById(id);
  const el = (tag, className) => {
    const made = document.createElement(tag);
    if (className) made.className = className;
    return made;
  };
  const fill = (template, values) =>
    template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
  const count = (key, n) => fill(WORDS[`${key}.${plural.select(n)}`] || WORDS[`${key}.other`], { n });

  const view = { cards: [], selected: null, selectedId: null, draft: null, busy: false };

  const key = () => localStorage.getItem(STORE) || "";
  const headers = (extra) => ({
    Authorization: `Bearer ${key()}`,
    "Accept-Language": LANG,
    ...extra,
  });

  // A reply's **bold** as <strong>; the rest as text.
  function rich(node, text) {
    node.replaceChildren();
    text.split("**").forEach((part, i) => {
      if (!part) return;
      if (i % 2) {
        const strong = el("strong");
        strong.textContent = part;
        node.append(strong);
      } else {
        node.append(document.createTextNode(part));
      }
    });
  }

  function addMessage(role, text) {
    const item = el("li", `message ${role}`);
    const who = el("span", "who");
    who.textContent = role === "user" ? WORDS.you : WORDS.assistant;
    const body = el("p", "text");
    rich(body, text);
    item.append(who, body);
    $("log").append(item);
    $("empty").hidden = true;
    item.scrollIntoView({ block: "end" });
    return body;
  }

  function price(gift) {
    try {
      return new Intl.NumberFormat(LANG, { style: "currency", currency: gift.currency }).format(
        gift.price,
      );
    } catch {
      return `${gift.price} ${gift.currency}`;
    }
  }

  function card(gift, index) {
    const item = el("li", "card");
    const titleId = `gift-${index}`;
    const title = el("h3");
    title.id = titleId;
    title.textContent = gift.title;
    const facts = el("p", "facts");
    const amount = el("span", "price");
    amount.textContent = price(gift);
    facts.append(amount);
    if (Number.isInteger(gift.delivery_days)) {
      const days = el("span", "delivery");
      days.textContent = count("delivery", gift.delivery_days);
      facts.append(days);
    }
    item.append(title, facts);
    if (gift.why) {
      const why = el("p", "why");
      why.textContent = gift.why;
      item.append(why);
    } else if (gift.answers && gift.answers.length) {
      const fits = el("p", "answers");
      fits.textContent = fill(WORDS.answers, { interests: gift.answers.join(", ") });
      item.append(fits);
    }
    const chosen = gift.id === view.selectedId;
    const button = el("button", "choose");
    button.type = "button";
    button.textContent = chosen ? WORDS.chosen : WORDS.choose;
    button.setAttribute("aria-label", fill(WORDS["choose.label"], { title: gift.title }));
    button.setAttribute("aria-pressed", String(chosen));
    button.disabled = Boolean(view.draft) || view.busy;
    button.addEventListener("click", () =>
      send(fill(WORDS["choose.say"], { n: index + 1, title: gift.title })),
    );
    if (chosen) item.classList.add("chosen");
    item.append(button);
    return item;
  }

  function titleOf(id) {
    if (view.selected && view.selected.id === id) return view.selected.title;
    const found = view.cards.find((gift) => gift.id === id);
    return found ? found.title : null;
  }

  function render() {
    $("cards").replaceChildren(...view.cards.map(card));
    $("ideas").hidden = view.cards.length === 0;
    const title = view.selectedId ? titleOf(view.selectedId) : null;
    const choice = $("choice");
    if (view.draft) {
      $("choice-text").textContent = title
        ? fill(WORDS.confirmed, { title })
        : WORDS["confirmed.unknown"];
    } else if (view.selectedId) {
      $("choice-text").textContent = title
        ? fill(WORDS.selected, { title })
        : WORDS["selected.unknown"];
    }
    choice.hidden = !view.selectedId && !view.draft;
    choice.classList.toggle("done", Boolean(view.draft));
    $("confirm").hidden = Boolean(view.draft) || !view.selectedId;
    $("confirm").disabled = view.busy;
  }

  // What a turn's "done" document or GET /v1/conversation says of the shortlist and choice.
  function show(doc) {
    if (doc.shortlist && doc.shortlist.length) view.cards = doc.shortlist;
    if (doc.selected) view.selected = doc.selected;
    view.selectedId = doc.selected_gift_id || null;
    view.draft = doc.order_draft_id || null;
    render();
  }

  function clear() {
    $("log").replaceChildren();
    $("empty").hidden = false;
    Object.assign(view, { cards: [], selected: null, selectedId: null, draft: null });
    $("error").textContent = "";
    render();
  }

  function setBusy(busy) {
    view.busy = busy;
    $("send").disabled = busy;
    $("writing").hidden = !busy;
    $("log").setAttribute("aria-busy", String(busy));
    render();
  }

  async function refusal(response) {
    try {
      const body = await response.json();
      return body.error.message;
    } catch {
      return `HTTP ${response.status}`;
    }
  }

  // Server-sent events from a fetch body: (event name, parsed data) for each.
  async function readEvents(response, on) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let name = "message";
        const data = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (data.length) on(name, JSON.parse(data.join("\n")));
      }
    }
  }

  async function send(text) {
    if (view.busy || !text.trim()) return;
    $("error").textContent = "";
    setBusy(true);
    addMessage("user", text);
    let bubble = null;
    let said = "";
    try {
      const response = await fetch("/v1/messages", {
        method: "POST",
        headers: headers({ "Content-Type": "application/json", Accept: "text/event-stream" }),
        body: JSON.stringify({ text }),
      });
      if (response.status === 401) return signOut(await refusal(response));
      if (!response.ok) {
        $("error").textContent = fill(WORDS.failed, { reason: await refusal(response) });
        return;
      }
      let finished = null;
      let refused = false;
      await readEvents(response, (name, data) => {
        if (name === "delta") {
          said += data.text;
          bubble = bubble || addMessage("assistant", "");
          rich(bubble, said);
        } else if (name === "done") {
          bubble = bubble || addMessage("assistant", "");
          rich(bubble, data.reply);
          finished = data;
        } else if (name === "error") {
          refused = true;
          $("error").textContent = fill(WORDS.failed, { reason: data.error.message });
        }
      });
      if (!finished && !refused) $("error").textContent = WORDS.offline; // cut off mid-turn
      if (finished) {
        show(finished);
        if (finished.selected_gift_id && !titleOf(finished.selected_gift_id)) await restore(false);
      }
    } catch (failure) {
      $("error").textContent = WORDS.offline;
    } finally {
      setBusy(false);
      $("message").focus();
    }
  }

  // The current search as it was: the messages (when `messages`), the ideas, the choice.
  async function restore(messages = true) {
    const response = await fetch("/v1/conversation", { headers: headers() });
    if (response.status === 401) return signOut(await refusal(response));
    if (!response.ok) {
      $("error").textContent = fill(WORDS.failed, { reason: await refusal(response) });
      return;
    }
    const doc = await response.json();
    if (messages) {
      clear();
      doc.messages.forEach((said) => addMessage(said.role, said.text));
    }
    show(doc);
  }

  async function newSearch() {
    if (view.busy) return;
    setBusy(true);
    try {
      const response = await fetch("/v1/runs", { method: "POST", headers: headers() });
      if (response.status === 401) return signOut(await refusal(response));
      if (!response.ok) {
        $("error").textContent = fill(WORDS.failed, { reason: await refusal(response) });
        return;
      }
      const doc = await response.json();
      clear();
      addMessage("assistant", doc.reply);
    } catch {
      $("error").textContent = WORDS.offline;
    } finally {
      setBusy(false);
      $("message").focus();
    }
  }

  function signOut(why) {
    localStorage.removeItem(STORE);
    clear();
    $("chat").hidden = true;
    $("key-form").hidden = false;
    $("key-error").textContent = typeof why === "string" ? why : "";
    $("key").value = "";
    $("key").focus();
  }

  async function signIn() {
    $("key-form").hidden = true;
    $("chat").hidden = false;
    try {
      await restore();
    } catch {
      $("error").textContent = WORDS.offline;
    }
    if (!$("chat").hidden) $("message").focus();
  }

  $("key-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const pasted = $("key").value.trim();
    if (!pasted) {
      $("key-error").textContent = WORDS["key.missing"];
      return;
    }
    localStorage.setItem(STORE, pasted);
    $("key-error").textContent = "";
    signIn();
  });
  $("message-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("message").value;
    if (!text.trim() || view.busy) return;
    $("message").value = "";
    send(text);
  });
  $("message").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      $("message-form").requestSubmit();
    }
  });
  $("confirm").addEventListener("click", () => send(WORDS["confirm.say"]));
  $("new-search").addEventListener("click", newSearch);
  $("sign-out").addEventListener("click", () => signOut());

  document.querySelectorAll(".languages a").forEach((link) => {
    if (link.hreflang === LANG) link.setAttribute("aria-current", "page");
  });
  if (key()) signIn();
  else signOut();
})();
