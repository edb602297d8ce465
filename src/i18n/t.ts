/** The islands' translator: messages picked on the server, `{{name}}` interpolation, no i18next runtime. */
export type Messages = Record<string, string>;
export type T = (key: string, values?: Record<string, string | number>) => string;

/**
 * The text of `key` with its values: a plural message (`key_one` / `key_other`, as i18next names
 * them) is chosen by `count` (one for 1, other otherwise: the English rule; Chinese writes the same
 * sentence in both), then `{{name}}` placeholders are filled in. A placeholder without a value is
 * left visible, and an unknown key is answered by the key itself, so a slip shows rather than
 * printing nothing.
 */
export function formatMessage(messages: Messages, key: string, values?: Record<string, string | number>): string {
  const text =
    messages[key] ??
    (values?.count !== undefined ? messages[`${key}_${values.count === 1 ? 'one' : 'other'}`] : undefined) ??
    key;
  return values
    ? text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
    : text;
}

export function createT(messages: Messages): T {
  return (key, values) => formatMessage(messages, key, values);
}
