import { EMBED_HEIGHT_EXTRA_PX, EMBED_MIN_HEIGHT_PX, EMBED_WINDOW_HEIGHT_RATIO } from './constants';

const WINDOW_PERCENT = Math.round(EMBED_WINDOW_HEIGHT_RATIO * 100);

const nonNegative = (value: number): number => (Number.isFinite(value) && value > 0 ? value : 0);

/**
 * The height reported to the parent in embed mode (spec §9): the content's height, but never less
 * than 200 px nor less than 35% of the window height plus 20 px. Whole pixels, rounded up so the
 * iframe never clips its content; unreadable measurements count as 0.
 */
export function embeddedHeight(contentHeight: number, windowHeight: number): number {
  // Work in whole percent: 0.35 * h in binary floating point can land a hair above an integer,
  // which rounding up would turn into a spurious extra pixel.
  const windowFloor = (nonNegative(windowHeight) * WINDOW_PERCENT) / 100 + EMBED_HEIGHT_EXTRA_PX;
  return Math.ceil(Math.max(EMBED_MIN_HEIGHT_PX, windowFloor, nonNegative(contentHeight)));
}
