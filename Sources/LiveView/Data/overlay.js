// The overlay: one strap's heart rate from /v1/straps/NAME/heart-rate (or /v1/heart-rate: the
// first strap's) (Server-Sent Events, `heart-rate`
// messages: {"bpm": N | null, "zone"?: Z, "distanceMeters": M, "event": …}), coloured by its zone
// of --zones. Chosen by query parameters, each checked; anything else is ignored:
//   strap=NAME        which strap (default: the first the bridge runs)
//   size=PX           the number's height in CSS pixels, 16–400 (default 72)
//   colors=HEX,HEX,…  one colour per zone, below the first bound first (default: grey, blue,
//                     green, yellow, orange, red)
//   color=HEX         the colour without zones (default white)
//   distance=1        the distance under the number
//   heart=0           no heart
import { distanceText } from "./activity-model.js";
import { heartIcon, setText } from "./dom.js";

const defaultZoneColors = ["#9ca3af", "#60a5fa", "#34d399", "#facc15", "#fb923c", "#f87171"];
const sizeRange = { min: 16, max: 400, fallback: 72 };
/** More colours than zones anyone configures. */
const colorLimit = 12;

/** `#rgb` or `#rrggbb` from `abc` / `aabbcc` (with or without `#`); null for anything else. */
export function hexColor(text) {
  if (typeof text !== "string") return null;
  const digits = text.startsWith("#") ? text.slice(1) : text;
  return /^([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(digits) ? `#${digits.toLowerCase()}` : null;
}

/** The overlay's settings from a query string: only values that pass their check. */
export function settings(query) {
  const parameters = new URLSearchParams(query);
  const size = Number.parseInt(parameters.get("size") ?? "", 10);
  const colors = (parameters.get("colors") ?? "").split(",").map(hexColor).filter((color) => color !== null).slice(0, colorLimit);
  return {
    strap: parameters.get("strap") ?? "",
    size: Number.isFinite(size) ? Math.min(sizeRange.max, Math.max(sizeRange.min, size)) : sizeRange.fallback,
    zoneColors: colors.length > 0 ? colors : defaultZoneColors,
    color: hexColor(parameters.get("color") ?? "") ?? "#ffffff",
    distance: ["1", "true", "yes"].includes(parameters.get("distance") ?? ""),
    heart: parameters.get("heart") !== "0",
  };
}

/** The colour of a reading: its zone's, else the plain colour. */
export function colorFor(reading, chosen) {
  if (typeof reading.zone !== "number" || reading.zone < 0) return chosen.color;
  return chosen.zoneColors[Math.min(reading.zone, chosen.zoneColors.length - 1)];
}

function start() {
  const chosen = settings(window.location.search);
  const overlay = document.getElementById("overlay");
  const value = document.getElementById("value");
  const distance = document.getElementById("distance");
  const heart = document.getElementById("heart");
  document.documentElement.style.setProperty("--size", `${chosen.size}px`);
  if (chosen.heart) heart.appendChild(heartIcon("overlay-heart-icon"));
  const url = chosen.strap === "" ? "/v1/heart-rate" : `/v1/straps/${encodeURIComponent(chosen.strap)}/heart-rate`;
  const source = new EventSource(url);
  const shown = { reading: null };
  source.addEventListener("heart-rate", (event) => {
    let reading;
    try {
      reading = JSON.parse(event.data);
    } catch {
      return;
    }
    if (!reading || typeof reading !== "object") return;
    shown.reading = reading;
    // The workout ended: the overlay has nothing to say until the next one starts.
    overlay.hidden = reading.event === "end";
    const lost = typeof reading.bpm !== "number";
    overlay.classList.toggle("lost", lost);
    overlay.classList.toggle("beating", !lost && chosen.heart);
    setText(value, lost ? "--" : String(reading.bpm));
    if (!lost) overlay.style.setProperty("--beat", `${(60 / Math.max(30, reading.bpm)).toFixed(3)}s`);
    overlay.style.setProperty("--color", colorFor(reading, chosen));
    distance.hidden = !chosen.distance;
    setText(distance, distanceText(reading.distanceMeters));
  });
  window.hrbridgeOverlay = { settings: chosen, shown, source };
}

start();
