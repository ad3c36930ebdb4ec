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
//
// Bot protection: when the questionnaire's read hands out a form token, the script solves its
// proof of work off the main thread (a Worker built from a Blob, crypto.subtle) while the person
// fills in the form, and sends the start no sooner than the token's minimum fill time after the
// read, so a person notices nothing unless faster than that. A hidden honeypot field, that
// people never see and form-filling scripts fill, travels with the start; the service refuses
// the start when it is filled.
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
    // The honeypot: out of sight and out of the tab order, yet a plain text field to a script.
    ".hp{position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden}",
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

  // The proof of work: the decimal nonce whose SHA-256 digest of challenge + nonce starts with
  // `difficulty` zero bits. Digests are asked in batches, as each crypto.subtle call costs a
  // promise. It is also the Worker's whole source (see solver), so it uses nothing around it.
  function solvePow(challenge, difficulty) {
    const encoder = new TextEncoder();
    const BATCH = 256;
    function zeroBits(bytes) {
      let bits = difficulty;
      for (let i = 0; bits > 0; i++) {
        if (bits < 8) return (bytes[i] >> (8 - bits)) === 0;
        if (bytes[i] !== 0) return false;
        bits -= 8;
      }
      return true;
    }
    async function from(start) {
      for (let base = start;; base += BATCH) {
        const batch = [];
        for (let i = 0; i < BATCH; i++) {
          batch.push(crypto.subtle.digest("SHA-256", encoder.encode(challenge + (base + i))));
        }
        const digests = await Promise.all(batch);
        for (let i = 0; i < BATCH; i++) {
          if (zeroBits(new Uint8Array(digests[i]))) return String(base + i);
        }
      }
    }
    return from(0);
  }

  // The nonce of a form token, solved in a Worker from a Blob; where the host page's
  // Content-Security-Policy forbids such a Worker, on this thread (crypto.subtle hashes off it).
  function solver(token) {
    return new Promise(function (resolve, reject) {
      let worker = null;
      let blobUrl = null;
      function here() {
        if (worker) worker.terminate();
        worker = null;
        solvePow(token.challenge, token.difficulty).then(resolve, reject);
      }
      try {
        const source = "onmessage=function(e){(" + solvePow.toString() + ")(e.data.challenge," +
          "e.data.difficulty).then(function(n){postMessage(n)})}";
        blobUrl = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
        worker = new Worker(blobUrl);
      } catch (_err) {
        return here();
      } finally {
        if (blobUrl) URL.revokeObjectURL(blobUrl);
      }
      worker.onmessage = function (event) {
        worker.terminate();
        resolve(event.data);
      };
      worker.onerror = function (event) {
        event.preventDefault();
        here();
      };
      worker.postMessage({ challenge: token.challenge, difficulty: token.difficulty });
    });
  }

  // A form token with its proof of work under way and the moment it arrived.
  function protection(token) {
    if (!token) return null;
    const nonce = solver(token);
    nonce.catch(function () {}); // awaited when the person starts; not an unhandled rejection
    return { token: token, nonce: nonce, receivedAt: performance.now() };
  }

  // The start's token fields, once the proof of work is solved and the minimum time is over.
  async function tokenFields(guard) {
    const nonce = await guard.nonce;
    const left = guard.receivedAt + guard.token.min_fill_seconds * 1000 - performance.now();
    if (left > 0) await wait(left);
    return { form_token: guard.token.token, pow_nonce: nonce };
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
        retryAfter: Number(res.headers.get("Retry-After")) || 0,
        error: {
          message: messageOf(data, res.status),
          field: field,
          code: data && data.error ? data.error.code : null,
        },
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
    const data = await read();
    if (data.error) return showFatal(data.error);
    startView(data.form);
  }

  // The questionnaire (a new form token with it when it is protected) or an error message.
  async function read() {
    let res;
    try {
      res = await fetch(url(""), { cache: "no-store" });
    } catch (_err) {
      return { error: "The questionnaire could not be loaded; check your connection." };
    }
    const data = await res.json().catch(function () {
      return null;
    });
    if (!res.ok) return { error: messageOf(data, res.status) };
    if (data.form_token && !(globalThis.crypto && crypto.subtle)) {
      return { error: "This questionnaire needs a secure (https) page to be filled in." };
    }
    return { form: data };
  }

  // The refusals after which a new form token helps: expired, used (e.g. a page restored from
  // the history), or none at all (protection switched on since the read).
  const STALE_TOKEN = ["FORM_TOKEN_EXPIRED", "FORM_TOKEN_USED", "FORM_TOKEN_REQUIRED"];

  function startView(form) {
    clear();
    const keyFor = operation();
    let guard = protection(form.form_token);
    // Named like a field that form-filling scripts complete; people never reach it.
    const honeypot = el("input", {
      type: "text",
      name: "website",
      autocomplete: "off",
      tabindex: "-1",
    });
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
      el("div", { "class": "hp", "aria-hidden": "true" }, [
        el("label", {}, [el("span", { text: "Website" }), honeypot]),
      ]),
      error,
      button,
    ]);
    card.appendChild(formEl);
    onSubmit(formEl, button, async function () {
      [nameError, emailError, error].forEach(function (n) {
        n.textContent = "";
      });
      let result;
      for (let attempt = 0;; attempt++) {
        const body = { name: name.value, email: email.value, loaded_at: loadedAt };
        if (honeypot.value) body.honeypot = honeypot.value;
        if (guard) {
          try {
            Object.assign(body, await tokenFields(guard));
          } catch (_err) {
            error.textContent = "This browser could not prepare the form; please reload the page.";
            return;
          }
        }
        result = await post("/sessions", body, keyFor(body));
        if (result.ok || attempt >= 2) break;
        const code = result.error.code;
        if (code === "FILLED_TOO_FAST") {
          await wait(Math.max(result.retryAfter, 1) * 1000);
        } else if (STALE_TOKEN.indexOf(code) >= 0) {
          const fresh = await read();
          if (fresh.error || !fresh.form.form_token) break;
          guard = protection(fresh.form.form_token);
        } else {
          break;
        }
      }
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
