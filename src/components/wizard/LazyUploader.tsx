import { lazy, type ComponentProps } from 'react';
import { ClientSuspense } from '@components/ui/ClientSuspense';

/*
 * The uploader (react-dropzone) as the wizards' forms use it: loaded when the form shows it, not
 * with the page (DESIGN §4 wizard budget), its label standing in while it loads.
 */
const Uploader = lazy(() => import('@components/uploads/Uploader').then((m) => ({ default: m.Uploader })));

export type LazyUploaderProps = ComponentProps<typeof Uploader>;

export function LazyUploader(props: LazyUploaderProps) {
  return (
    <ClientSuspense fallback={<p className="text-sm">{props.label}</p>}>
      <Uploader {...props} />
    </ClientSuspense>
  );
}
