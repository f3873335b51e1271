// Building the page's elements. Every text from the stream (a label, a workout or strap name, a
// sink's error) goes in through textContent, never as markup: a label `<script>…` shows as text.

/** An element with a class and, optionally, text. */
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** `parent` with `children` appended; returns `parent`. */
export function append(parent, ...children) {
  for (const child of children) parent.appendChild(child);
  return parent;
}

/** Sets `node`'s text only when it changed (no needless layout). */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

const svgNamespace = "http://www.w3.org/2000/svg";

/** A heart, as SF Symbols' heart.fill draws it, in the current text colour. */
export function heartIcon(className) {
  const svg = document.createElementNS(svgNamespace, "svg");
  svg.setAttribute("viewBox", "0 0 24 22");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", className);
  const path = document.createElementNS(svgNamespace, "path");
  path.setAttribute("fill", "currentColor");
  path.setAttribute("d", "M12 21.2 10.6 20C5.4 15.4 2 12.4 2 8.6 2 5.5 4.4 3 7.5 3c1.7 0 3.4.8 4.5 2.1C13.1 3.8 14.8 3 16.5 3 19.6 3 22 5.5 22 8.6c0 3.8-3.4 6.8-8.6 11.4L12 21.2z");
  svg.appendChild(path);
  return svg;
}

/** A running figure's stand-in: the workout glyph at the Lock Screen's top left. */
export function workoutIcon(className) {
  const svg = document.createElementNS(svgNamespace, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", className);
  const circle = document.createElementNS(svgNamespace, "circle");
  circle.setAttribute("cx", "14.5");
  circle.setAttribute("cy", "4");
  circle.setAttribute("r", "2.2");
  circle.setAttribute("fill", "currentColor");
  const body = document.createElementNS(svgNamespace, "path");
  body.setAttribute("fill", "none");
  body.setAttribute("stroke", "currentColor");
  body.setAttribute("stroke-width", "2.2");
  body.setAttribute("stroke-linecap", "round");
  body.setAttribute("stroke-linejoin", "round");
  body.setAttribute("d", "M7 12.5l3-3.5 4 1.5-2 5 4 3.5M12 15.5 8.5 21M14 10.5l3 2.5h3");
  svg.append(circle, body);
  return svg;
}
