// Sounds made by the page itself (WebAudio oscillators and noise): on unless the player muted
// them, at the volume they chose (both kept in storage). A browser keeps an AudioContext
// suspended until the page's first gesture; the first click or key press resumes it.

let ctx = null, master = null;
const stored = (k) => (typeof localStorage === "undefined" ? null : localStorage.getItem(k));
let on = stored("sound") !== "0";
let volume = Math.min(1, Math.max(0, Number(stored("volume") ?? 0.7)));

export const soundOn = () => on;
export function setSound(v) { on = !!v; localStorage.setItem("sound", on ? "1" : "0"); }
export const getVolume = () => volume;
/** The loudness of every sound, 0..1. */
export function setVolume(v) {
  volume = Math.min(1, Math.max(0, Number(v)));
  localStorage.setItem("volume", String(volume));
  if (master) master.gain.value = volume;
}

function audio() {
  if (!ctx) {
    ctx = new (window.AudioContext || window.webkitAudioContext)();
    master = ctx.createGain();
    master.gain.value = volume;
    master.connect(ctx.destination);
    const wake = () => { if (ctx.state === "suspended") ctx.resume().catch(() => {}); };
    for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, wake, { passive: true });
  }
  return ctx;
}

function tone(freq, start, dur, type = "sine", gain = 0.15) {
  const a = audio(), o = a.createOscillator(), g = a.createGain();
  o.type = type; o.frequency.value = freq;
  g.gain.setValueAtTime(gain, a.currentTime + start);
  g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + start + dur);
  o.connect(g).connect(master);
  o.start(a.currentTime + start); o.stop(a.currentTime + start + dur);
}

function click() {
  // a short filtered noise burst: a tile set down on the table
  const a = audio(), len = Math.floor(a.sampleRate * 0.04), buf = a.createBuffer(1, len, a.sampleRate);
  const d = buf.getChannelData(0);
  for (let i = 0; i < len; i++) d[i] = (Math.random() * 2 - 1) * (1 - i / len) ** 3;
  const src = a.createBufferSource(), f = a.createBiquadFilter(), g = a.createGain();
  f.type = "bandpass"; f.frequency.value = 2200; g.gain.value = 0.6;
  src.buffer = buf; src.connect(f).connect(g).connect(master); src.start();
}

const SOUNDS = {
  discard: click,
  call: () => { tone(440, 0, 0.12, "triangle"); tone(660, 0.1, 0.15, "triangle"); },
  riichi: () => { tone(520, 0, 0.1, "square", 0.08); tone(780, 0.1, 0.25, "square", 0.08); },
  win: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.09, 0.5)),
  turn: () => tone(880, 0, 0.08, "sine", 0.08),
};

/** Play a named sound unless muted; never throws (no audio device is fine). */
export function play(name) {
  if (!on || volume === 0 || !SOUNDS[name]) return;
  try { SOUNDS[name](); } catch (err) { on = false; }
}

/** The master gain's value now (for tests and the volume control's echo), or null before any sound. */
export const masterGain = () => (master ? master.gain.value : null);
