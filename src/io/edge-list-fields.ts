// The text of one edge-list line: its fields (delimited, optionally quoted as CSV writes them),
// what a header field and a number look like, and how a field is quoted in a message.

import type { EdgeListDelimiter } from './edge-list-options.js';

/** Column names that mark a first line as a header (with `header: 'auto'`). */
export const HEADER_FIELD =
  /^(source|target|src|dst|dest|destination|from|to|u|v|w|weight|weights|value|score|combined_score|(node|vertex|protein|gene|interactor|id|name)_?[12ab]?|(from|to|source|target)_?(id|node|name))$/i;

/** A number written in decimal that is not a plain non-negative integer: refused as a numeric id. */
export const NUMBER_LIKE = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** The line's fields, split by `d`, blanks trimmed and double quotes removed. */
export function splitFields(text: string, d: Exclude<EdgeListDelimiter, 'auto'>): string[] {
  const fields = text.includes('"') ? splitQuoted(text, d) : d === 'blanks' ? text.trim().split(/[ \t]+/) : text.split(d).map((f) => f.trim());
  // A trailing delimiter leaves an empty field at the end; empty ones elsewhere are errors.
  while (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
  return fields;
}

/**
 * Fields of a line that holds double quotes, as CSV writes them: a delimiter inside quotes is
 * text, and a doubled quote inside quotes is one quote.
 */
function splitQuoted(text: string, d: Exclude<EdgeListDelimiter, 'auto'>): string[] {
  const fields: string[] = [];
  const isDelimiter = (ch: string): boolean => (d === 'blanks' ? ch === ' ' || ch === '\t' : ch === d);
  let field = '';
  let quoted = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field.trim() === '') {
      quoted = true;
      started = true;
      field = '';
    } else if (isDelimiter(ch)) {
      if (d !== 'blanks' || started || field !== '') fields.push(started ? field : field.trim());
      field = '';
      started = false;
    } else {
      field += ch;
    }
  }
  if (d !== 'blanks' || started || field.trim() !== '') fields.push(started ? field : field.trim());
  return fields;
}

/** A field as it appears in a message: quoted and shortened. */
export function quote(field: string): string {
  return JSON.stringify(field.length > 40 ? `${field.slice(0, 40)}...` : field);
}
