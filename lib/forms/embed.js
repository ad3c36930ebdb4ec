/* Onda embed script: <script src=".../embed.js" data-form="SLUG"></script> */
// Served as GET /embed.js (routes/forms/embed.ts imports it as text, so `deno compile` embeds
// it): a dependency-free script that renders a published questionnaire where its
// <script data-form="SLUG"> tag stands.
//
// Security: every string that comes from the service (titles, options, error messages) goes
// through textContent or setAttribute, never through an HTML parser, so questionnaire content
// cannot inject markup into the host page. The shadow root is "open" so that assistive technology
// and the host page's tests can reach it; styles stay isolated either way.
//
// Idempotency: each logical POST (start the session, answer question N with value V) gets
// one Idempotency-Key from crypto.randomUUID(); a retry or a second click with the same
// payload reuses it, so the service answers it once. A changed payload is a new operation
// and gets a new key (the service refuses a reused key with another body).
(function () {
  "use strict";
  const script = document.currentScript;
  if (!script || !script.parentNode) return;
  const slug = script.getAttribute("data-form") || "";
  const base = new URL(".", script.src || location.href);
  const loadedAt = Date.now();

  const host = document.createElement("div");
  host.setAttribute("data-onda-form", slug);
  script.parentNode.insertBefore(host, script.nextSibling);
  const root = host.attachShadow({ mode: "open" });

  const style = document.createElement("style");
  style.textContent = [
    ":host{display:block;font:16px/1.4 system-ui,sans-serif;color:#1b1b1f;max-width:36rem}",
    ".card{border:1px solid #d0d0d8;border-radius:10px;padding:1.25rem;background:#fff}",
    "h2{margin:0 0 1rem;font-size:1.25rem}",
    "label.field{display:block;margin:0 0 .75rem}",
    "label.field span{display:block;font-weight:600;margin-bottom:.25rem}",
    "input[type=text],input[type=email]{box-sizing:border-box;width:100%;padding:.5rem;",
    "border:1px solid #9a9aa6;border-radius:6px;font:inherit}",
    "fieldset{border:0;margin:0 0 .75rem;padding:0}",
    "legend{font-weight:600;margin-bottom:.5rem;padding:0}",
    ".option{display:block;margin:.25rem 0}",
    ".rating{display:flex;gap:.5rem}",
    ".rating label{border:1px solid #9a9aa6;border-radius:6px;padding:.35rem .7rem;cursor:pointer}",
    ".rating input{margin-right:.25rem}",
    "button{font:inherit;padding:.5rem 1.1rem;border:0;border-radius:6px;background:#2f5bd3;",
    "color:#fff;cursor:pointer}",
    "button[disabled]{opacity:.6;cursor:progress}",
    ".error{color:#b00020;min-height:1.2em;margin:.25rem 0 .75rem}",
    ".bar{height:8px;background:#e6e6ee;border-radius:4px;overflow:hidden;margin-bottom:.25rem}",
    ".fill{height:100%;width:0;background:#2f5bd3;transition:width .2s}",
    ".count{font-size:.85rem;color:#55555f;margin-bottom:1rem}",
    ".done{font-size:1.1rem}",
  ].join("");
  root.appendChild(style);
  const card = el("div", { "class": "card", part: "card" });
  root.appendChild(card);

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    let key;
    for (key in attrs || {}) {
      if (key === "text") node.textContent = attrs[key];
      else node.setAttribute(key, attrs[key]);
    }
    (children || []).forEach(function (child) {
      node.appendChild(child);
    });
    return node;
  }

  function clear() {
    while (card.firstChild) card.removeChild(card.firstChild);
  }

  function url(path) {
    return new URL("api/v1/public/q/" + encodeURIComponent(slug) + path, base).toString();
  }

  function wait(ms) {
    return new Promise(function (resolve) {
      setTimeout(resolve, ms);
    });
  }

  function messageOf(data, status) {
    if (data && data.error && typeof data.error.message === "string") return data.error.message;
    return "The service answered " + status + "; please try again.";
  }

  // One logical operation = one key; the same payload sent again reuses it.
  function operation() {
    let payload = null;
    let key = null;
    return function keyFor(body) {
      const text = JSON.stringify(body);
      if (text !== payload) {
        payload = text;
        key = crypto.randomUUID();
      }
      return key;
    };
  }

  // POST with retries on network errors, 5xx, 429 and "still running" 409s, same key each time.
  async function post(path, body, key) {
    for (let attempt = 0;; attempt++) {
      let res = null;
      try {
        res = await fetch(url(path), {
          method: "POST",
          headers: { "Content-Type": "application/json", "Idempotency-Key": key },
          body: JSON.stringify(body),
        });
      } catch (_err) {
        if (attempt < 3) {
          await wait(400 * Math.pow(2, attempt));
          continue;
        }
        return {
          ok: false,
          status: 0,
          error: { message: "Network error; check your connection and try again.", field: null },
        };
      }
      const data = await res.json().catch(function () {
        return null;
      });
      const field = data && data.error ? data.error.field : null;
      const retryable = res.status >= 500 || res.status === 429 ||
        (res.status === 409 && field === "Idempotency-Key");
      if (retryable && attempt < 3) {
        const after = Number(res.headers.get("Retry-After"));
        await wait(after > 0 ? Math.min(after, 10) * 1000 : 400 * Math.pow(2, attempt));
        continue;
      }
      if (res.ok) return { ok: true, status: res.status, data: data };
      return {
        ok: false,
        status: res.status,
        error: { message: messageOf(data, res.status), field: field },
      };
    }
  }

  function showFatal(message) {
    clear();
    card.appendChild(el("p", { "class": "error", role: "alert", text: message }));
  }

  async function load() {
    card.appendChild(el("p", { text: "Loading…" }));
    if (!slug) {
      return showFatal(
        "The embed script needs a data-form attribute with the questionnaire's slug.",
      );
    }
    let res;
    try {
      res = await fetch(url(""));
    } catch (_err) {
      return showFatal("The questionnaire could not be loaded; check your connection.");
    }
    const data = await res.json().catch(function () {
      return null;
    });
    if (!res.ok) return showFatal(messageOf(data, res.status));
    startView(data);
  }

  function startView(form) {
    clear();
    const keyFor = operation();
    const name = el("input", { type: "text", name: "name", autocomplete: "name", required: "" });
    const email = el("input", {
      type: "email",
      name: "email",
      autocomplete: "email",
      required: "",
    });
    const nameError = el("div", { "class": "error", "data-field": "name", "aria-live": "polite" });
    const emailError = el("div", {
      "class": "error",
      "data-field": "email",
      "aria-live": "polite",
    });
    const error = el("div", { "class": "error", "data-field": "form", "aria-live": "polite" });
    const button = el("button", { type: "submit", "data-action": "start", text: "Start" });
    const formEl = el("form", { novalidate: "" }, [
      el("h2", { text: form.title }),
      el("label", { "class": "field" }, [el("span", { text: "Your name" }), name]),
      nameError,
      el("label", { "class": "field" }, [el("span", { text: "Your e-mail" }), email]),
      emailError,
      error,
      button,
    ]);
    card.appendChild(formEl);
    onSubmit(formEl, button, async function () {
      [nameError, emailError, error].forEach(function (n) {
        n.textContent = "";
      });
      const body = { name: name.value, email: email.value, loaded_at: loadedAt };
      const result = await post("/sessions", body, keyFor(body));
      if (!result.ok) {
        const target = result.error.field === "name"
          ? nameError
          : result.error.field === "email"
          ? emailError
          : error;
        target.textContent = result.error.message;
        return;
      }
      questionView(form, result.data.sessionId, 0, { answered: 0, total: form.questions.length });
    });
  }

  // The one submit handler of every form: a submit while one is in flight (a double click) is
  // ignored, and the button stays disabled until the answer has been shown.
  function onSubmit(formEl, button, send) {
    let busy = false;
    formEl.addEventListener("submit", async function (event) {
      event.preventDefault();
      if (busy) return;
      busy = true;
      button.disabled = true;
      try {
        await send();
      } finally {
        busy = false;
        button.disabled = false;
      }
    });
  }

  function inputFor(question) {
    const type = question.type;
    if (type === "choice" || type === "rating") {
      const values = type === "rating" ? ["1", "2", "3", "4", "5"] : (question.options || []);
      const group = el("fieldset", { "class": type === "rating" ? "rating" : "choice" });
      group.appendChild(el("legend", { text: title(question) }));
      values.forEach(function (value) {
        const radio = el("input", { type: "radio", name: "q" + question.id, value: String(value) });
        group.appendChild(
          el("label", { "class": "option" }, [radio, document.createTextNode(String(value))]),
        );
      });
      return {
        node: group,
        value: function () {
          const checked = group.querySelector("input:checked");
          return checked ? checked.value : "";
        },
      };
    }
    const input = el("input", {
      type: type === "email" ? "email" : "text",
      name: "q" + question.id,
      "data-question-type": type,
    });
    if (type === "number") input.setAttribute("inputmode", "decimal");
    return {
      node: el("label", { "class": "field" }, [el("span", { text: title(question) }), input]),
      value: function () {
        return input.value;
      },
    };
  }

  function title(question) {
    return question.title + (question.required ? " *" : "");
  }

  function progressBar(progress) {
    const pct = progress.total ? Math.round(100 * progress.answered / progress.total) : 0;
    const fill = el("div", { "class": "fill" });
    fill.style.width = pct + "%";
    return el("div", {}, [
      el("div", {
        "class": "bar",
        role: "progressbar",
        "aria-valuemin": "0",
        "aria-valuemax": String(progress.total),
        "aria-valuenow": String(progress.answered),
      }, [fill]),
      el("div", {
        "class": "count",
        text: progress.answered + " of " + progress.total + " answered",
      }),
    ]);
  }

  function questionView(form, sessionId, index, progress) {
    clear();
    const question = form.questions[index];
    if (!question) return doneView(progress);
    const keyFor = operation();
    const field = inputFor(question);
    const error = el("div", { "class": "error", "data-field": "answerText", role: "alert" });
    const last = index === form.questions.length - 1;
    const button = el("button", {
      type: "submit",
      "data-action": "answer",
      text: last ? "Submit" : "Next",
    });
    const formEl = el("form", { novalidate: "", "data-question-id": String(question.id) }, [
      progressBar(progress),
      field.node,
      error,
      button,
    ]);
    card.appendChild(formEl);
    onSubmit(formEl, button, async function () {
      error.textContent = "";
      const body = { questionId: question.id, answerText: field.value() };
      const result = await post(
        "/sessions/" + encodeURIComponent(sessionId) + "/answers",
        body,
        keyFor(body),
      );
      if (result.ok) {
        if (result.data.isComplete) return doneView(result.data.progress);
        return questionView(form, sessionId, index + 1, result.data.progress);
      }
      // Already answered (a response lost on the way back): move on rather than get stuck.
      if (result.status === 409 && result.error.field === "questionId") {
        return questionView(form, sessionId, index + 1, progress);
      }
      error.textContent = result.error.message;
    });
  }

  function doneView(progress) {
    clear();
    card.appendChild(progressBar(progress));
    card.appendChild(
      el("p", {
        "class": "done",
        role: "status",
        text: "Thank you! Your answers have been recorded.",
      }),
    );
  }

  load();
})();
