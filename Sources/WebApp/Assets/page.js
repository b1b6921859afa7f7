// AssistiveKit web app: small enhancements on top of pages that work without script.
"use strict";

// After a form was sent, the page opens with its outcome: move focus there so a screen reader
// reads it and the keyboard continues from it.
document.addEventListener("DOMContentLoaded", () => {
  const message = document.getElementById("message");
  if (message) message.focus();

  const spoken = document.getElementById("spoken");
  if (spoken) {
    // The session's sentences arrive as server-sent events and are added to the log region,
    // which screen readers announce politely; only the last 50 stay on the page.
    const events = new EventSource(spoken.dataset.events || "/live/events");
    events.onmessage = (event) => {
      const item = document.createElement("li");
      item.textContent = event.data;
      // The event's id is when the sentence reached the web app (ms since 1970, same computer):
      // kept so the delay to showing it can be measured.
      const publishedAt = Number(event.lastEventId);
      if (publishedAt > 0) item.dataset.delayMs = String(Date.now() - publishedAt);
      spoken.appendChild(item);
      while (spoken.children.length > 50) spoken.removeChild(spoken.firstElementChild);
    };
    // Commands are sent without leaving the page; the answer arrives in the log region.
    for (const form of document.querySelectorAll("form[data-live-command]")) {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const data = new URLSearchParams(new FormData(form, event.submitter));
        fetch(form.action, { method: "POST", body: data, headers: { "Accept": "application/json" } })
          .catch(() => {
            const item = document.createElement("li");
            item.textContent = "The command could not reach the web app; is assist serve still running?";
            item.className = "warning";
            spoken.appendChild(item);
          });
      });
    }
  }
});
