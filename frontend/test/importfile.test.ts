import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api';
import { importFailure, importRefusal, lineColumn, parseImport } from '../src/importfile';

describe('import file messages', () => {
  it('a file that is not JSON: the file, the line and column, nothing imported, not the engine text', () => {
    const cases: [string, number, number][] = [
      ['{ x: 1 }', 1, 3],
      ['{\n  "name": "a",\n  "duration": 5s\n}', 3, 16],
      ['{"name": "a",', 1, 14],
      ['', 1, 1],
    ];
    for (const [text, line, column] of cases) {
      let msg = '';
      try {
        parseImport('e1.json', text);
      } catch (e) {
        msg = importFailure('e1.json', e);
      }
      expect(msg).toContain(`e1.json is not JSON: at line ${line}, column ${column} `);
      expect(msg).toMatch(/; nothing imported$/);
      expect(msg).not.toMatch(/position|JSON\.parse|Unexpected token|Expected property/);
    }
  });

  it('line and column count from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });

  it('a refused document names the file, each field by its pointer, and nothing imported', () => {
    const problem = {
      status: 422,
      detail: 'quota 500 us is below the 1000 us minimum',
      errno: 'EINVAL',
      pointer: '/cgroups/0/cpu.max',
      errors: [{ pointer: '/cgroups/0/cpu.max', reason: 'quota 500 us is below the 1000 us minimum', errno: 'EINVAL' }],
    };
    expect(importFailure('bad.json', new ApiError(422, problem))).toBe(
      'bad.json: nothing imported: /cgroups/0/cpu.max: quota 500 us is below the 1000 us minimum (EINVAL)',
    );
    expect(importRefusal('bad.json', { detail: 'no body', pointer: '/tasks/1/name' })).toBe('bad.json: nothing imported: /tasks/1/name: no body');
    expect(importRefusal('x.json', { errors: [{ pointer: '/a', reason: 'r1' }, { pointer: '/cgroups/~1web', reason: 'r2', errno: 'ERANGE' }] })).toBe(
      'x.json: nothing imported: /a: r1; /cgroups[/web]: r2 (ERANGE)',
    );
  });
});
