/* Inline SVG icons (rose, skull): drawn, not emoji, so a phone without a colour emoji font shows them. */
// ------------------------------------------------------------------ icons
// Inline SVG, not the 🌹/💀 emoji: a phone or a Debian Chromium without a colour emoji font
// would draw those as empty boxes.
var SVG_NS = "http://www.w3.org/2000/svg";
export var ICONS = {
  rose: [["path", { d: "M8 8.5v6.5", stroke: "#2e7d32", "stroke-width": "1.6", fill: "none" }],
         ["path", { d: "M8 12.2c-2.2.1-3.4-1-3.9-2.6 1.7-.1 3.1.7 3.9 2.6z", fill: "#43a047" }],
         ["circle", { cx: "8", cy: "5.4", r: "4.1", fill: "#d32f2f" }],
         ["path", { d: "M5.9 5.6a2.1 2.1 0 0 1 4.2 0M7 4.2a1.2 1.2 0 0 1 2 .9", stroke: "#8e0000", "stroke-width": ".9", fill: "none" }]],
  skull: [["path", { d: "M8 1.3c-3.6 0-6.1 2.4-6.1 5.7 0 2 1 3.4 2.6 4.1v2.6h7v-2.6c1.6-.7 2.6-2.1 2.6-4.1 0-3.3-2.5-5.7-6.1-5.7z", fill: "#f3f0e6" }],
          ["circle", { cx: "5.6", cy: "7.3", r: "1.55", fill: "#2b2b2b" }],
          ["circle", { cx: "10.4", cy: "7.3", r: "1.55", fill: "#2b2b2b" }],
          ["path", { d: "M7.2 10.6h1.6L8 9.2z", fill: "#2b2b2b" }],
          ["path", { d: "M6.3 13.7v-1.6M8 13.7v-1.6M9.7 13.7v-1.6", stroke: "#2b2b2b", "stroke-width": ".8" }]]
};
export function noteIcon(role) {
  var svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "18"); svg.setAttribute("height", "18");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "icon icon-" + role);
  (ICONS[role] || []).forEach(function (part) {
    var e = document.createElementNS(SVG_NS, part[0]);
    Object.keys(part[1]).forEach(function (k) { e.setAttribute(k, part[1][k]); });
    svg.appendChild(e);
  });
  return svg;
}
