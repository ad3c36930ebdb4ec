// SQL as tagged templates: a query's text is only its template's strings, with `$n` for each
// value, and the values travel apart as parameters, never spliced into the text. Fragments nest
// with their own values. One compiler for both databases: postgres.js and PGlite each have a
// template tag of their own, but with fragment types of their own that other code would have to
// build with the driver in hand, and with different handling of values; both take `$n` text
// with a parameter list, so the same query reaches either database as the same statement.

const FRAGMENT = Symbol("sql fragment");

/** A piece of SQL with its own parameters, to be interpolated into a query (`frag\`and x = ${v}\``). */
export interface Fragment {
  readonly [FRAGMENT]: true;
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

export function frag(strings: TemplateStringsArray, ...values: unknown[]): Fragment {
  return { [FRAGMENT]: true, strings, values };
}

/** An empty fragment, for optional conditions. */
export const empty: Fragment = { [FRAGMENT]: true, strings: [""], values: [] };

function isFragment(value: unknown): value is Fragment {
  return typeof value === "object" && value !== null && FRAGMENT in value;
}

/** Joins the non-empty fragments with a separator fragment (e.g. `frag\` and \``). */
export function join(fragments: Fragment[], separator: Fragment): Fragment {
  const parts = fragments.filter((f) => f.values.length > 0 || f.strings.some((s) => s.trim()));
  if (parts.length === 0) return empty;
  // The parts and separators as nested fragments: compile inlines each with its own values.
  const values = parts.flatMap((part, i) => i === 0 ? [part] : [separator, part]);
  return { [FRAGMENT]: true, strings: ["", ...values.map(() => "")], values };
}

/** Compiles a template (with nested fragments) into `$n` text and a parameter list. */
export function compile(
  strings: readonly string[],
  values: readonly unknown[],
): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  let text = "";
  const walk = (s: readonly string[], v: readonly unknown[]) => {
    text += s[0];
    for (let i = 0; i < v.length; i++) {
      const value = v[i];
      if (isFragment(value)) walk(value.strings, value.values);
      else {
        params.push(value === undefined ? null : value);
        text += "$" + params.length;
      }
      text += s[i + 1];
    }
  };
  walk(strings, values);
  return { text, params };
}
