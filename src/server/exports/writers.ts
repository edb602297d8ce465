import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { CSV_BOM, csvRow, moneyUnits, type Cell } from '@domain/exports';
import type { Column, ColumnKind } from './columns';

/*
 * The export files, written as they are read: each database page becomes bytes only when the
 * download asks for more (CSV: a pull stream; XLSX: exceljs's streaming workbook writer, paused
 * while the download lags behind), so an export of any size holds about one page in memory.
 * Decision 029.
 */

type Report = (error: unknown) => void;

/** A CSV file (UTF-8 with a BOM, CRLF rows): the header row, then a chunk per page of rows. */
export function csvStream<R>(
  columns: Column<R>[],
  pages: AsyncGenerator<R[]>,
  report: Report,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(CSV_BOM + csvRow(columns.map((c) => c.header))));
          return;
        }
        const next = await pages.next();
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(next.value.map((row) => csvRow(columns.map((c) => c.value(row)))).join('')));
      } catch (error) {
        report(error);
        controller.error(error);
      }
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}

const TAIPEI_MS = 8 * 60 * 60 * 1000;
const WIDTH: Record<ColumnKind, number> = { text: 20, long: 40, date: 17, money: 12, number: 8 };
const NUM_FMT = { date: 'yyyy-mm-dd hh:mm', TWD: '#,##0', USD: '#,##0.00' } as const;
/** Bytes the download may lag behind before the writer waits for it. */
const HIGH_WATER = 1 << 20;

/**
 * A cell as XLSX stores it. Text stays text (a string cell is never a formula, so it needs no
 * neutralising); instants become Excel date-times of Taipei's wall clock (Excel has no time
 * zones); amounts become numbers in their currency's units, formatted with its decimals.
 */
function xlsxValue(cell: Cell): { value: ExcelJS.CellValue; numFmt?: string } {
  if (cell === null || cell === undefined || cell === '') return { value: null };
  if (cell instanceof Date) return { value: new Date(cell.getTime() + TAIPEI_MS), numFmt: NUM_FMT.date };
  if (typeof cell === 'object') return { value: moneyUnits(cell.cents), numFmt: NUM_FMT[cell.currency] };
  return { value: cell };
}

/** Waits while the download has more than HIGH_WATER bytes to take (or until it goes away). */
async function room(out: PassThrough) {
  while (out.readableLength > HIGH_WATER && !out.destroyed) {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        out.off('drain', done);
        out.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, 50);
      out.once('drain', done);
      out.once('close', done);
    });
  }
}

/** An XLSX workbook of one sheet: a bold, frozen header row, then the rows. */
export function xlsxStream<R>(
  sheetName: string,
  columns: Column<R>[],
  pages: AsyncGenerator<R[]>,
  report: Report,
): ReadableStream<Uint8Array> {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  // Excel refuses sheet names over 31 characters or with []:*?/\.
  const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = columns.map((c) => ({ key: c.key, width: WIDTH[c.kind] }));
  const write = (cells: Cell[], bold = false) => {
    const row = sheet.addRow(cells.map((cell) => xlsxValue(cell).value));
    cells.forEach((cell, i) => {
      const { numFmt } = xlsxValue(cell);
      if (numFmt) row.getCell(i + 1).numFmt = numFmt;
    });
    if (bold) row.font = { bold: true };
    row.commit();
  };
  void (async () => {
    try {
      write(
        columns.map((c) => c.header),
        true,
      );
      for await (const page of pages) {
        if (out.destroyed) break;
        for (const item of page) write(columns.map((c) => c.value(item)));
        await room(out);
      }
      if (out.destroyed) return void (await pages.return(undefined));
      sheet.commit();
      await workbook.commit();
    } catch (error) {
      // A download that went away is not an error of the export.
      if (!out.destroyed) {
        report(error);
        out.destroy(error as Error);
      }
    }
  })();
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}
