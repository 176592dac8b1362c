// Number formatting shared by the goal checks and the Markdown tables.

const DASH = '—';

export function fmtInt(value) {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : DASH;
}

export function fmtMs(value) {
  if (!Number.isFinite(value)) return DASH;
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(2)} ms`;
}

export function fmtRatio(value) {
  if (!Number.isFinite(value)) return DASH;
  if (value >= 10) return `${value.toFixed(1)}×`;
  // Two significant digits below 0.01: a find that costs 0.0045× of a whole snapshot is not "0.00×".
  return value > 0 && value < 0.01 ? `${value.toPrecision(2)}×` : `${value.toFixed(2)}×`;
}

export function fmtNum(value, digits = 1) {
  return Number.isFinite(value) ? value.toFixed(digits) : DASH;
}
