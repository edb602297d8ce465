import type { ReactNode } from 'react';

/** A column's header: its text, figures aligned to the end, or a header for screen readers only. */
export type TableColumn = string | { label: string; numeric?: boolean; hidden?: boolean };

/**
 * An island's table (DataTable.astro's twin): scrolls sideways on a narrow screen, a caption for
 * screen readers, one header row; the rows are the children.
 */
export function Table(props: { caption: string; columns: TableColumn[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-md border border-neutral-300 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{props.caption}</caption>
        <thead className="bg-neutral-100">
          <tr>
            {props.columns.map((column, i) => {
              const c = typeof column === 'string' ? { label: column } : column;
              return (
                <th key={i} scope="col" className={`px-3 py-2 ${c.numeric ? 'text-right' : ''}`}>
                  {c.hidden ? <span className="sr-only">{c.label}</span> : c.label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
