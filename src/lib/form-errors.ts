import { StructError, validate, type Struct } from 'superstruct';

/**
 * Field errors of a value against a struct, keyed by dotted camelCase path (`badge.nameEn`),
 * as message keys with values for the translator: the same struct the API validates with.
 */
export function fieldErrors<T, S>(
  value: unknown,
  struct: Struct<T, S>,
): Record<string, { key: string; values?: Record<string, number> }> {
  const [error] = validate(value, struct, { coerce: true });
  if (!(error instanceof StructError)) return {};
  const out: Record<string, { key: string; values?: Record<string, number> }> = {};
  for (const failure of error.failures()) {
    const path = failure.path.join('.');
    if (out[path]) continue;
    const text = typeof failure.value === 'string' ? failure.value.trim() : failure.value;
    const max = /between `?\d+`? and `?(\d+)`?/.exec(failure.message)?.[1];
    if (text === undefined || text === null || text === '') out[path] = { key: 'form.required' };
    else if (failure.refinement === 'size' && max) out[path] = { key: 'form.tooLong', values: { max: Number(max) } };
    else if (failure.refinement === 'phone') out[path] = { key: 'form.phone' };
    else if (failure.refinement === 'last_five_digits') out[path] = { key: 'form.lastFive' };
    else if (failure.refinement === 'unified_business_number') out[path] = { key: 'form.ubn' };
    else if (failure.refinement === 'receipt' && /mobile barcode/.test(failure.message))
      out[path] = { key: 'form.mobileBarcode' };
    else if (failure.refinement === 'receipt' && /certificate/.test(failure.message))
      out[path] = { key: 'form.certificate' };
    else if (failure.refinement === 'receipt' && /love code/.test(failure.message))
      out[path] = { key: 'form.loveCode' };
    else if (failure.refinement === 'email') out[path] = { key: 'form.email' };
    else if (failure.refinement === 'categories') out[path] = { key: 'market.form.categoriesMax' };
    else if (/required/i.test(failure.message)) out[path] = { key: 'form.required' };
    else out[path] = { key: 'form.invalid' };
  }
  return out;
}

/**
 * The shown errors that still hold: an error goes as soon as its field is valid (or no longer
 * asked for), and none is added before the next submit. Null when nothing changes.
 */
export function stillFailing(
  shown: Record<string, string>,
  now: Record<string, string | undefined>,
): Record<string, string> | null {
  const kept = Object.fromEntries(
    Object.keys(shown)
      .filter((path) => now[path])
      .map((path) => [path, now[path]!]),
  );
  const same =
    Object.keys(kept).length === Object.keys(shown).length && Object.keys(kept).every((p) => kept[p] === shown[p]);
  return same ? null : kept;
}
