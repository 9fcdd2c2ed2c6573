/** How the detail view writes tokens, cost and dates (the same formats as the rest of the app). */
import { formatAbsoluteDate, formatCost, formatTokens } from '../format.js';
import type { DetailFormat } from './entry-detail.js';

export const DETAIL_FORMAT: DetailFormat = {
  tokens: formatTokens,
  cost: formatCost,
  date: (iso) => {
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? iso : `${formatAbsoluteDate(ms)} (${iso})`;
  },
};
