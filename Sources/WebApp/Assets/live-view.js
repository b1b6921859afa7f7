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
  const waitingIntervalMs = 2000;
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
    if (!paused && !reducedMotion.matches) {
      timer = setTimeout(refresh, intervalMs);
    } else if (shownSequence === null) {
      // Nothing shown yet (the session is starting): the first frame is still fetched by itself.
      timer = setTimeout(refresh, waitingIntervalMs);
    }
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
    label.className = "box-label";
    label.textContent = object.label + " " + object.distanceText;
    element.appendChild(label);
    return element;
  }

  // Each label where it covers no label placed before it (closest object first): inside its box
  // at the top, above it, below it, inside at the bottom, then the same at the right; kept within
  // the picture. Side by side, labels of neighbours would otherwise hide each other (at 400 % zoom).
  function placeLabels() {
    const area = frame.getBoundingClientRect();
    const placed = [];
    for (const element of [...frame.querySelectorAll(".box")].reverse()) {
      const label = element.querySelector(".box-label");
      const box = element.getBoundingClientRect();
      const width = label.offsetWidth, height = label.offsetHeight;
      const candidates = [[box.left, box.top], [box.left, box.top - height], [box.left, box.bottom],
        [box.left, box.bottom - height], [box.right - width, box.top], [box.right - width, box.top - height],
        [box.right - width, box.bottom], [box.right - width, box.bottom - height]].map(([x, y]) => {
        const left = Math.max(area.left, Math.min(x, area.right - width));
        const top = Math.max(area.top, Math.min(y, area.bottom - height));
        return { left, top, right: left + width, bottom: top + height };
      });
      const free = candidates.find((c) => !placed.some((p) =>
        p.left < c.right && c.left < p.right && p.top < c.bottom && c.top < p.bottom));
      const chosen = free || candidates[0];
      placed.push(chosen);
      label.style.left = (chosen.left - box.left - element.clientLeft) + "px";
      label.style.top = (chosen.top - box.top - element.clientTop) + "px";
    }
  }
  window.addEventListener("resize", placeLabels);

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
    // Closest last, so where boxes overlap the nearest object's box and label are on top.
    const boxes = reply.view.objects.map((object) => box(object, reply.view)).reverse();
    frame.replaceChildren(picture, ...boxes);
    fillCaption(reply.view);
    figure.hidden = false;
    placeLabels();
    frame.dataset.sequence = String(reply.view.sequenceNumber);
    shownSequence = reply.view.sequenceNumber;
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
