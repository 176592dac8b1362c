// Markdown table helpers shared by the report sections.

import { ratio } from '../lib/stats.mjs';
import { fmtRatio } from './format.mjs';

export function table(headers, rows) {
  const line = (cells) =>
    `| ${cells
      .map((c) =>
        String(c ?? '—')
          .replace(/\|/g, '\\|')
          .replace(/\n/g, ' '),
      )
      .join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A row that has no numbers says why, in its first number column; the rest stay empty. */
export function cells(row, render, width) {
  if (row.na) return [row.na, ...Array(width - 1).fill('')];
  if (row.error) return [`error: ${row.error.slice(0, 160)}`, ...Array(width - 1).fill('')];
  return render(row);
}

export const ratioCell = (bm, value) => (bm === undefined ? '—' : fmtRatio(ratio(bm, value)));
export const usable = (row, field) => row && !row.na && !row.error && Number.isFinite(row[field]);
