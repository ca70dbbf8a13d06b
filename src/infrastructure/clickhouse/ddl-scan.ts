/** Just enough of ClickHouse's lexer for rewriting DDL: brackets and commas outside quotes. */

/** Index of the bracket closing the one at `open`, skipping quoted strings and identifiers. */
export function closingBracket(sql: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']' };
  const stack: string[] = [];
  for (let i = open; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') {
      i = endOfQuoted(sql, i);
      continue;
    }
    if (pairs[c]) stack.push(pairs[c]);
    else if (c === ')' || c === ']') {
      if (stack.pop() !== c) throw new Error(`unbalanced "${c}" at ${i}`);
      if (stack.length === 0) return i;
    }
  }
  throw new Error(`unclosed bracket at ${open}`);
}

/** Splits at `separator` where no bracket or quote is open. */
export function splitTopLevel(text: string, separator = ','): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') i = endOfQuoted(text, i);
    else if (c === '(' || c === '[') i = closingBracket(text, i);
    else if (c === separator) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter((part) => part.length > 0);
}

function endOfQuoted(sql: string, start: number): number {
  const quote = sql[start];
  for (let i = start + 1; i < sql.length; i++) {
    if (sql[i] === '\\') i++;
    else if (sql[i] === quote) {
      if (sql[i + 1] === quote) i++;
      else return i;
    }
  }
  throw new Error(`unclosed ${quote} at ${start}`);
}
