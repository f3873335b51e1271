// One activity drawn as iOS shows it: the Lock Screen presentation and the Dynamic Island's
// compact (leading and trailing), minimal and expanded presentations, laid out like the workout
// widget (heart rate, distance, timer, interval label), and a strip with the last update's reason
// and priority and what each sink did. Built once, then only its texts and classes change.
import { element, append, setText, heartIcon, workoutIcon } from "./dom.js";
import { timerText, ageText } from "./activity-model.js";

/** A number, or `--` when the sensor is lost: never an invented one. */
function rateText(p) {
  return p.heartRate === null ? "--" : String(p.heartRate);
}

class RateView {
  constructor(className, withUnit) {
    this.root = element("span", `rate ${className}`);
    this.value = element("span", "rate-value");
    append(this.root, heartIcon("heart"), this.value);
    if (withUnit) {
      this.unit = element("span", "rate-unit");
      this.root.appendChild(this.unit);
    }
  }

  show(p) {
    setText(this.value, rateText(p));
    if (this.unit) setText(this.unit, p.lost ? "SENSOR LOST" : "BPM");
    this.root.classList.toggle("lost", p.lost);
  }
}

class TimerView {
  constructor(className) {
    this.root = element("span", `timer ${className}`);
  }

  show(p) {
    setText(this.root, timerText(p.elapsed));
    this.root.classList.toggle("frozen", p.paused || p.ended);
  }
}

function lockScreen() {
  const view = { root: element("div", "lock-screen") };
  view.name = element("span", "ls-name");
  view.badge = element("span", "ls-badge");
  view.label = element("span", "ls-label");
  view.rate = new RateView("ls-rate", true);
  view.timer = new TimerView("ls-timer");
  view.paused = element("span", "ls-paused", "PAUSED");
  view.distance = element("span", "ls-distance");
  const top = append(element("div", "ls-top"), workoutIcon("workout"), view.name, view.label);
  const timerBox = append(element("div", "ls-timer-box"), view.timer.root, view.paused);
  const main = append(element("div", "ls-main"), view.rate.root, timerBox);
  append(view.root, top, main, append(element("div", "ls-bottom"), view.distance, view.badge));
  return view;
}

function island() {
  const view = { root: element("div", "island-stage") };
  view.compactRate = new RateView("compact-leading", false);
  view.compactTimer = new TimerView("compact-trailing");
  view.minimalRate = new RateView("minimal-rate", false);
  view.expandedRate = new RateView("expanded-leading", true);
  view.expandedTimer = new TimerView("expanded-trailing");
  view.expandedName = element("span", "expanded-center");
  view.expandedDistance = element("span", "expanded-distance");
  view.expandedLabel = element("span", "expanded-label");
  const compact = append(element("div", "island compact"), view.compactRate.root, element("span", "camera"), view.compactTimer.root);
  const minimal = append(element("div", "island minimal"), view.minimalRate.root);
  const expanded = append(element("div", "island expanded"),
    append(element("div", "expanded-top"), view.expandedRate.root, view.expandedName, view.expandedTimer.root),
    append(element("div", "expanded-bottom"), view.expandedDistance, view.expandedLabel));
  view.ended = element("p", "island-ended",
    "Ended: iOS takes it out of the Dynamic Island; the Lock Screen keeps it until its dismissal date.");
  append(view.root,
    captioned("Compact (leading, trailing)", compact),
    captioned("Minimal", minimal),
    captioned("Expanded", expanded),
    view.ended);
  return view;
}

function captioned(caption, node) {
  return append(element("div", "presentation"), node, element("span", "caption", caption));
}

/** The strip: `changed · priority 5 · #12`, then one entry per sink. */
function strip() {
  const view = { root: element("footer", "strip") };
  view.update = element("span", "strip-update");
  view.sinks = element("ul", "strip-sinks");
  append(view.root, view.update, view.sinks);
  return view;
}

function sinkEntry(sink) {
  const item = element("li", "sink");
  append(item, element("span", "sink-name", sink.name),
    element("span", "sink-counts", `sent ${sink.sent} · superseded ${sink.superseded} · waiting ${sink.waiting}`));
  if (typeof sink.lastError === "string") item.appendChild(element("span", "sink-error", `last error: ${sink.lastError}`));
  if (typeof sink.detail === "string") item.appendChild(element("span", "sink-detail", sink.detail));
  return item;
}

export class ActivityCard {
  constructor(activityID) {
    this.root = element("section", "activity");
    this.root.dataset.activity = activityID;
    this.title = element("span", "activity-strap");
    this.identifier = element("span", "activity-id", activityID);
    this.lock = lockScreen();
    this.island = island();
    this.strip = strip();
    const lockFrame = append(element("figure", "frame lock-frame"), element("figcaption", "frame-title", "Lock Screen"),
      append(element("div", "wallpaper"), this.lock.root));
    const islandFrame = append(element("figure", "frame island-frame"), element("figcaption", "frame-title", "Dynamic Island"),
      this.island.root);
    append(this.root, append(element("header", "activity-header"), this.title, this.identifier),
      append(element("div", "presentations"), lockFrame, islandFrame), this.strip.root);
    this.sinksShown = "";
  }

  /** Draws presentation `p` (activity-model.js) of `update`, with `sinks` ({strap, sinks}) if known. */
  show(update, p, sinks) {
    this.root.classList.toggle("stale", p.stale);
    this.root.classList.toggle("ended", p.ended);
    this.root.classList.toggle("lost", p.lost);
    this.root.classList.toggle("paused", p.paused);
    if (sinks && typeof sinks.strap === "string") setText(this.title, sinks.strap);
    const lock = this.lock;
    setText(lock.name, p.workoutName);
    setText(lock.label, p.label);
    lock.label.hidden = p.label === "";
    setText(lock.badge, p.ended ? "ENDED" : p.stale ? `NOT UPDATED · ${ageText(p.sinceUpdate)}` : "");
    lock.badge.hidden = !p.ended && !p.stale;
    lock.rate.show(p);
    lock.timer.show(p);
    lock.paused.hidden = !p.paused;
    setText(lock.distance, p.distance);
    const island = this.island;
    for (const rate of [island.compactRate, island.minimalRate, island.expandedRate]) rate.show(p);
    island.compactTimer.show(p);
    island.expandedTimer.show(p);
    setText(island.expandedName, p.workoutName);
    setText(island.expandedDistance, p.distance);
    setText(island.expandedLabel, p.label);
    setText(this.strip.update, `${update.reason} · priority ${update.priority} · #${update.sequence}`);
    this.showSinks(sinks ? sinks.sinks : []);
  }

  showSinks(list) {
    const key = JSON.stringify(list);
    if (key === this.sinksShown) return;
    this.sinksShown = key;
    this.strip.sinks.replaceChildren(...list.map(sinkEntry));
  }
}
