// The preview page: the event stream in (/v1/events: `update`, `sinks`, `clock`), one card per
// activity out, redrawn as the session's clock runs (timers count, stale dates pass, ended
// activities go at their dismissal date). EventSource reconnects by itself and sends the last
// update's id back (Last-Event-ID): the server resumes from there, and a repeat is ignored here.
import { SessionClock, presentation, isNewer } from "./activity-model.js";
import { ActivityCard } from "./activity-view.js";
import { setText } from "./dom.js";

/** Redraws per wall second: a replay at --speed 10 moves its timers ten seconds a second. */
const framesPerSecond = 10;

const clock = new SessionClock();
/** activity id → {update, sinks, card} */
const activities = new Map();
const list = document.getElementById("activities");
const empty = document.getElementById("empty");
const connection = document.getElementById("connection");
/** Every update received, in order, for tests driving the page (never shown). */
const received = [];

function sessionNow() {
  return clock.now(performance.now(), Date.now());
}

function parse(event) {
  try {
    const value = JSON.parse(event.data);
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}

function onUpdate(event) {
  const update = parse(event);
  if (!update || typeof update.activity !== "string" || typeof update.sequence !== "number") return;
  received.push(`${update.activity}/${update.sequence}`);
  const entry = activities.get(update.activity);
  if (entry && !isNewer(update, entry.update)) return;
  if (entry) {
    entry.update = update;
  } else {
    const card = new ActivityCard(update.activity);
    activities.set(update.activity, { update, sinks: null, card });
    list.appendChild(card.root);
  }
  draw();
}

function onSinks(event) {
  const report = parse(event);
  if (!report || typeof report.activity !== "string" || !Array.isArray(report.sinks)) return;
  const entry = activities.get(report.activity);
  if (!entry) return;
  entry.sinks = report;
  draw();
}

function onClock(event) {
  const message = parse(event);
  if (message) clock.set(message, performance.now());
  draw();
}

function draw() {
  const now = sessionNow();
  for (const [id, entry] of activities) {
    const p = presentation(entry.update, now);
    if (p.dismissed) {
      entry.card.root.remove();
      activities.delete(id);
      continue;
    }
    entry.card.show(entry.update, p, entry.sinks);
  }
  empty.hidden = activities.size > 0;
}

function connect() {
  const source = new EventSource("/v1/events");
  source.addEventListener("update", onUpdate);
  source.addEventListener("sinks", onSinks);
  source.addEventListener("clock", onClock);
  source.onopen = () => {
    setText(connection, "live");
    connection.className = "connection live";
  };
  source.onerror = () => {
    setText(connection, source.readyState === EventSource.CLOSED ? "disconnected" : "reconnecting…");
    connection.className = "connection down";
  };
  return source;
}

window.hrbridgePreview = {
  received,
  /** What the page shows now, for tests: each activity's state and texts. */
  snapshot() {
    const now = sessionNow();
    return [...activities.values()].map(({ update }) => ({ activity: update.activity, sequence: update.sequence, ...presentation(update, now) }));
  },
  source: connect(),
};
setInterval(draw, 1000 / framesPerSecond);
draw();
