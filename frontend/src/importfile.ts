// Importing a scenario file: what the editor says when the file is not imported. The file's name, the field's JSON
// pointer (as the tree editor and the API name it, `/cgroups/0/cpu.max`) and "nothing imported" are in every
// message; a file that is not JSON gets a sentence with the line and column, not the browser's JSON.parse text
// (which differs between engines and reads `Expected property name or '}' in JSON at position 1`).
import { ApiError, kernelMessage, type ProblemBody } from './api';
import { readablePath } from './pointers';

/** A file the editor did not import, with the sentence that says why. */
export class ImportRefused extends Error {}

/** Line and column (both from 1) of character `offset` of `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/**
 * Where JSON.parse stopped in `text`: the engine's `position N` when it names one, else the end (V8's "Unexpected
 * end of JSON input" names none).
 */
export function parseFailureOffset(text: string, engineMessage: string): number {
  const m = /position (\d+)/.exec(engineMessage);
  return m ? Number(m[1]) : text.length;
}

/** The scenario document in `text`, or an {@link ImportRefused} naming `fileName`, the line and the column. */
export function parseImport(fileName: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const offset = parseFailureOffset(text, e instanceof Error ? e.message : String(e));
    const { line, column } = lineColumn(text, offset);
    const found = offset >= text.trimEnd().length ? 'the file ends' : `it has ${JSON.stringify(text[offset])}`;
    throw new ImportRefused(
      `${fileName} is not JSON: at line ${line}, column ${column} ${found} where JSON needs a value, a comma, a ` +
        `bracket or a property name in double quotes; nothing imported`,
    );
  }
}

/** The service's refusal of the imported document: each field's pointer and reason, the file, "nothing imported". */
export function importRefusal(fileName: string, problem: ProblemBody, status?: number): string {
  const list = problem.errors ?? [];
  const fields = list.length
    ? list.map((x) => `${readablePath(x.pointer ?? '')}: ${x.reason ?? ''}${x.errno ? ` (${x.errno})` : ''}`)
    : [problem.pointer ? `${readablePath(problem.pointer)}: ${kernelMessage(problem, status)}` : kernelMessage(problem, status)];
  return `${fileName}: nothing imported: ${fields.join('; ')}`;
}

/** What to show for any failure of an import of `fileName`. */
export function importFailure(fileName: string, e: unknown): string {
  if (e instanceof ImportRefused) return e.message;
  if (e instanceof ApiError) return importRefusal(fileName, e.problem, e.status);
  return `${fileName}: nothing imported: ${e instanceof Error ? e.message : String(e)}`;
}
