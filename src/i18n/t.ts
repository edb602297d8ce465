/** The islands' translator: messages picked on the server, `{{name}}` interpolation, no i18next runtime. */
export type Messages = Record<string, string>;
export type T = (key: string, values?: Record<string, string | number>) => string;

export function createT(messages: Messages): T {
  return (key, values) => {
    const text = messages[key] ?? key;
    return values ? text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? '')) : text;
  };
}
