// AssistiveKit web app, Debug page: the band levels and gains of the running hearing chain,
// about ten times a second (server-sent events), drawn into the page's own SVG bars and table.
// The numbers change too often to announce: the table is there to be read when wanted.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const spectra = document.getElementById("spectra");
  if (!spectra) return;
  // The same scale as the server's drawing (AudiogramChart / spectrumFigure): 0–120 dB SPL
  // between y = 250 and y = 20.
  const top = 20, bottom = 250;
  const y = (spl) => bottom - Math.max(0, Math.min(120, spl)) / 120 * (bottom - top);
  const setBar = (id, spl) => {
    const bar = document.getElementById(id);
    if (!bar) return;
    bar.setAttribute("y", y(spl).toFixed(1));
    bar.setAttribute("height", (bottom - y(spl)).toFixed(1));
  };
  const setCell = (id, value) => {
    const cell = document.getElementById(id);
    if (cell) cell.textContent = Math.round(value).toString();
  };
  const events = new EventSource(spectra.dataset.events);
  events.onmessage = (event) => {
    const frame = JSON.parse(event.data);
    for (const ear of ["left", "right"]) {
      const values = frame[ear];
      values.inputSPL.forEach((spl, band) => {
        setBar(`bar-${ear}-input-${band}`, spl);
        setBar(`bar-${ear}-output-${band}`, values.outputSPL[band]);
        setCell(`cell-${ear}-input-${band}`, spl);
        setCell(`cell-${ear}-gain-${band}`, values.gainDecibels[band]);
        setCell(`cell-${ear}-output-${band}`, values.outputSPL[band]);
      });
    }
    spectra.dataset.frames = String(Number(spectra.dataset.frames || "0") + 1);
  };
});
