// Optional sounds made by the page itself (WebAudio oscillators and noise), off by default.

let ctx = null;
let on = localStorage.getItem("sound") === "1";

export const soundOn = () => on;
export function setSound(v) { on = v; localStorage.setItem("sound", v ? "1" : "0"); }

function audio() {
  if (!ctx) ctx = new (window.AudioContext || window.webkitAudioContext)();
  return ctx;
}

function tone(freq, start, dur, type = "sine", gain = 0.15) {
  const a = audio(), o = a.createOscillator(), g = a.createGain();
  o.type = type; o.frequency.value = freq;
  g.gain.setValueAtTime(gain, a.currentTime + start);
  g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + start + dur);
  o.connect(g).connect(a.destination);
  o.start(a.currentTime + start); o.stop(a.currentTime + start + dur);
}

function click() {
  // a short filtered noise burst: a tile set down on the table
  const a = audio(), len = Math.floor(a.sampleRate * 0.04), buf = a.createBuffer(1, len, a.sampleRate);
  const d = buf.getChannelData(0);
  for (let i = 0; i < len; i++) d[i] = (Math.random() * 2 - 1) * (1 - i / len) ** 3;
  const src = a.createBufferSource(), f = a.createBiquadFilter(), g = a.createGain();
  f.type = "bandpass"; f.frequency.value = 2200; g.gain.value = 0.6;
  src.buffer = buf; src.connect(f).connect(g).connect(a.destination); src.start();
}

const SOUNDS = {
  discard: click,
  call: () => { tone(440, 0, 0.12, "triangle"); tone(660, 0.1, 0.15, "triangle"); },
  riichi: () => { tone(520, 0, 0.1, "square", 0.08); tone(780, 0.1, 0.25, "square", 0.08); },
  win: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.09, 0.5)),
  turn: () => tone(880, 0, 0.08, "sine", 0.08),
};

/** Play a named sound when sounds are on; never throws (no audio device is fine). */
export function play(name) {
  if (!on || !SOUNDS[name]) return;
  try { SOUNDS[name](); } catch (err) { on = false; }
}
