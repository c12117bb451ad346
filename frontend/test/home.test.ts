import { describe, expect, it } from 'vitest';
import { paceText, whenText } from '../src/pages/home';
import { splitDescription } from '../src/pages/experiment';

describe('the home page runs table', () => {
  it("says when a run was created in the browser's time zone, with the zone's name", () => {
    expect(whenText('2026-12-01T07:30:05.123Z', 'UTC')).toBe('2026-12-01 07:30:05 UTC');
    expect(whenText('2026-12-01T07:30:05.123Z', 'America/New_York')).toBe('2026-12-01 02:30:05 EST');
    expect(whenText('2026-12-01T23:30:05Z', 'Asia/Tokyo')).toBe('2026-12-02 08:30:05 GMT+9');
  });

  it('says the pace a run was asked for, as the run page does', () => {
    expect(paceText(null)).toBe('as fast as possible');
    expect(paceText(undefined)).toBe('as fast as possible');
    expect(paceText(10)).toBe('10× real time');
    expect(paceText(0.1)).toBe('0.1× real time');
  });
});

describe('experiment descriptions', () => {
  it('show their first paragraph, the rest behind "details"', () => {
    expect(splitDescription('What it shows.\n\nHow it is set up.\n\nMore.')).toEqual(['What it shows.', 'How it is set up.\n\nMore.']);
    expect(splitDescription('One paragraph only.')).toEqual(['One paragraph only.', '']);
  });
});
