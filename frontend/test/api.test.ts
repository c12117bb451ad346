import { describe, expect, it } from 'vitest';
import { csrfHeaders } from '../src/api';

/** A document with these <meta name=… content=…> tags. */
function doc(meta: Record<string, string>): Pick<Document, 'querySelector'> {
  return {
    querySelector: (sel: string) => {
      const name = /meta\[name="([^"]+)"\]/.exec(sel)?.[1];
      return name && name in meta ? ({ getAttribute: () => meta[name] } as unknown as Element) : null;
    },
  } as Pick<Document, 'querySelector'>;
}

describe('CSRF header of writes', () => {
  it('is the session token in the header the server names (service with a token)', () => {
    expect(csrfHeaders(doc({ _csrf: 'abc', _csrf_header: 'X-CSRF-TOKEN' }))).toEqual({ 'X-CSRF-TOKEN': 'abc' });
  });
  it('is absent without a token (no meta tags)', () => {
    expect(csrfHeaders(doc({}))).toEqual({});
  });
});
