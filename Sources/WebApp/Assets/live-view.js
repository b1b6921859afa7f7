// AssistiveKit web app: the camera view on the Live page. The session's latest analysed frame is
// fetched a few times a second (/live/view, then its picture), each object drawn as a yellow box
// with its label and distance; the picture's text alternative is the scene's description. With
// prefers-reduced-motion, or paused, the frame changes only when "Update the view" is pressed.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const figure = document.getElementById("view");
  if (!figure) return;
  const frame = document.getElementById("view-frame");
  const caption = document.getElementById("view-caption");
  const note = document.getElementById("view-note");
  const pause = document.getElementById("view-pause");
  const update = document.getElementById("view-update");
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  // About two and a half frames a second: enough to follow a walk, little work for the browser.
  const intervalMs = 400;
  let paused = false;
  let shownSequence = null;
  let timer = null;
  let fetching = false;

  pause.hidden = false;
  update.hidden = false;

  function describeState() {
    if (reducedMotion.matches) {
      note.textContent = "Your system asks for less motion, so the view changes only when you press Update the view.";
    } else if (paused) {
      note.textContent = "The view is paused; Update the view shows the latest frame.";
    } else {
      note.textContent = "The view follows the session, about two frames a second.";
    }
  }

  function setPaused(value) {
    paused = value;
    pause.setAttribute("aria-pressed", String(paused || reducedMotion.matches));
    pause.hidden = reducedMotion.matches;
    describeState();
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    timer = null;
    if (!paused && !reducedMotion.matches) timer = setTimeout(refresh, intervalMs);
  }

  function showNothing(sentence) {
    figure.hidden = true;
    shownSequence = null;
    frame.replaceChildren();
    caption.replaceChildren();
    note.textContent = sentence;
  }

  // A box per object, in percent of the frame so it scales with the picture.
  function box(object, view) {
    const element = document.createElement("div");
    element.className = "box";
    element.setAttribute("aria-hidden", "true");
    const left = 100 * Math.max(0, object.box.x0) / view.width;
    const top = 100 * Math.max(0, object.box.y0) / view.height;
    const right = 100 * Math.min(view.width, object.box.x1) / view.width;
    const bottom = 100 * Math.min(view.height, object.box.y1) / view.height;
    element.style.left = left + "%";
    element.style.top = top + "%";
    element.style.width = Math.max(0, right - left) + "%";
    element.style.height = Math.max(0, bottom - top) + "%";
    const label = document.createElement("span");
    label.className = "box-label" + ((left + right) / 2 > 50 ? " at-right" : "");
    label.textContent = object.label + " " + object.distanceText;
    element.appendChild(label);
    return element;
  }

  function fillCaption(view) {
    const heading = document.createElement("p");
    heading.textContent = view.objects.length === 0 ? "Nothing detected in this frame."
      : "In this frame (" + view.objects.length + (view.objects.length === 1 ? " object" : " objects") + ", closest first):";
    const list = document.createElement("ul");
    for (const object of view.objects) {
      const item = document.createElement("li");
      item.textContent = object.label + ", " + object.distanceText + ", " + object.direction;
      list.appendChild(item);
    }
    caption.replaceChildren(heading, ...(view.objects.length ? [list] : []));
  }

  async function show(reply) {
    if (!reply.view) { showNothing(reply.sentence); return; }
    if (reply.view.sequenceNumber === shownSequence) return;
    // The new picture is loaded before anything changes, so boxes and picture always match.
    const picture = new Image();
    picture.id = "view-image";
    picture.alt = reply.sentence;
    if (reply.image) {
      picture.src = reply.image;
      await picture.decode();
    }
    picture.width = reply.view.width;
    picture.height = reply.view.height;
    frame.replaceChildren(picture, ...reply.view.objects.map((object) => box(object, reply.view)));
    fillCaption(reply.view);
    frame.dataset.sequence = String(reply.view.sequenceNumber);
    shownSequence = reply.view.sequenceNumber;
    figure.hidden = false;
    describeState();
  }

  async function refresh() {
    if (fetching) return;
    fetching = true;
    try {
      const response = await fetch("/live/view", { cache: "no-store" });
      await show(await response.json());
    } catch (error) {
      // A picture replaced before it arrived is simply skipped; only a server that is gone is said.
      if (!(error instanceof DOMException)) showNothing("The view could not be fetched; is assist serve still running?");
    } finally {
      fetching = false;
      schedule();
    }
  }

  pause.addEventListener("click", () => setPaused(!paused));
  update.addEventListener("click", () => { clearTimeout(timer); refresh(); });
  reducedMotion.addEventListener("change", () => setPaused(paused));
  setPaused(false);
  refresh();
});
