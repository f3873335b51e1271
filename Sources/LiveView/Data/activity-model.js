// What ActivityKit would show from the updates as sent, and nothing they do not say: pure
// functions of an update (the NDJSON line hrbridge sends every sink) and the session's time.
// No DOM, no clock of its own: preview.js passes the time in.

/** Seconds from the Unix epoch to 2001-01-01, the reference date ActivityKit's dates count from. */
export const referenceDateOffset = 978307200;

/** A content-state date (seconds since 2001) as Unix seconds. */
export function unixFromReference(seconds) {
  return seconds + referenceDateOffset;
}

/**
 * The session's clock: the `clock` message says the session's time and how many of its seconds
 * pass per wall second (a replay's --speed); between messages it runs on the browser's monotonic
 * clock. Before the first message it is the browser's own time.
 */
export class SessionClock {
  constructor() {
    this.base = null;
  }

  /** `message`: {now, speed}; `wallMillis`: performance.now() when it arrived. */
  set(message, wallMillis) {
    if (!Number.isFinite(message.now) || !Number.isFinite(message.speed) || message.speed <= 0) return;
    this.base = { now: message.now, speed: message.speed, wall: wallMillis };
  }

  get speed() {
    return this.base ? this.base.speed : 1;
  }

  /** Unix seconds on the session's clock at `wallMillis`. */
  now(wallMillis, fallbackUnixMillis) {
    if (!this.base) return fallbackUnixMillis / 1000;
    return this.base.now + ((wallMillis - this.base.wall) / 1000) * this.base.speed;
  }
}

/**
 * What `Text(timerInterval: start...end, pauseTime: pausedAt, countsDown: false)` shows at `now`:
 * the time since the range's start, frozen at `pausedAt`, never past the range's end.
 * `timerRange` and `pausedAt` are content-state dates; `now` is Unix seconds.
 */
export function elapsedSeconds(contentState, now) {
  const range = contentState.timerRange;
  if (!Array.isArray(range) || range.length !== 2) return 0;
  const start = unixFromReference(range[0]);
  const end = unixFromReference(range[1]);
  const paused = contentState.pausedAt;
  const at = typeof paused === "number" ? unixFromReference(paused) : now;
  return Math.max(0, Math.min(at, end) - start);
}

/** `0:07`, `12:34`, `1:02:03`: how a timer text reads, whole seconds counted down (floor). */
export function timerText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = whole % 60;
  const two = (value) => String(value).padStart(2, "0");
  return hours > 0 ? `${hours}:${two(minutes)}:${two(secs)}` : `${minutes}:${two(secs)}`;
}

/** `850 m`, then `1.23 km`. */
export function distanceText(meters) {
  if (typeof meters !== "number" || !Number.isFinite(meters) || meters < 0) return "";
  if (meters < 1000) return `${Math.floor(meters)} m`;
  return `${(meters / 1000).toFixed(2)} km`;
}

/** `12 s`, `3 min`, `2 h`: how long ago, coarse, as a stale badge says it. */
export function ageText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min`;
  return `${Math.floor(whole / 3600)} h`;
}

/**
 * How the activity looks at session time `now`:
 * - `dismissed`: ended and past its dismissal date: the phone has removed it;
 * - `ended`: the final state, on the Lock Screen only (the Dynamic Island lets go at the end);
 * - `stale`: not ended and past its stale date (a widget's `context.isStale`);
 * - `lost`: the update has no heart rate (the sensor is lost): no number is shown;
 * - `paused`: the timer is frozen at `pausedAt`.
 */
export function presentation(update, now) {
  const state = update.contentState || {};
  const ended = update.event === "end";
  const dismissal = typeof update.dismissalDate === "number" ? update.dismissalDate : null;
  return {
    dismissed: ended && dismissal !== null && now >= dismissal,
    ended,
    stale: !ended && typeof update.staleDate === "number" && now >= update.staleDate,
    lost: typeof state.heartRate !== "number",
    paused: !ended && typeof state.pausedAt === "number",
    heartRate: typeof state.heartRate === "number" ? state.heartRate : null,
    elapsed: elapsedSeconds(state, now),
    distance: distanceText(state.distanceMeters),
    label: typeof state.intervalLabel === "string" ? state.intervalLabel : "",
    workoutName: update.attributes && typeof update.attributes.workoutName === "string" ? update.attributes.workoutName : "",
    sinceUpdate: typeof update.timestamp === "number" ? now - update.timestamp : 0,
  };
}

/**
 * Whether `update` is newer than `known` for the same activity: a reconnect or a repeat never
 * moves an activity back.
 */
export function isNewer(update, known) {
  return !known || update.sequence > known.sequence;
}
