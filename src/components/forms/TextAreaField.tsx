import { TextField } from '../ui/TextField';
import type { TextFieldBase } from '../ui/FieldParts';

/**
 * A labelled textarea with the live counter (length/limit), its error and an optional required
 * mark: TextField with rows (3 unless said).
 */
export const TextAreaField = (props: TextFieldBase & { max: number; rows?: number }) => (
  <TextField {...props} rows={props.rows ?? 3} />
);
