import { $, useStore, useVisibleTask$ } from '@builder.io/qwik';
import { usePreventNavigate$ } from '@builder.io/qwik-city';
import { getShrinkSetting } from '../../lib/shrink-setting';
import {
  findPlaceholder,
  newUploadToken,
  placedImage,
  placeholderAlt,
  placeholderUrl,
} from '../../lib/upload-placeholder';
import { resumeUploads, uploadIntoText, uploadsInFlight, watchUploads } from '../../lib/upload-queue';
import { bodyEditor, insertImageIntoBody } from './body-editor';
import type { useArticleEditor } from './use-article-editor';

/** One image on its way into the text, as the progress list shows it. */
export interface BodyUpload {
  token: string;
  name: string;
  percent: number;
  note: string;
  /** Not sent for want of an answer: kept in this browser until it can be sent again (no progress bar). */
  waiting: boolean;
}

type Editor = ReturnType<typeof useArticleEditor>;

/**
 * Images into the text (toolbar, paste, drop) through lib/upload-queue.ts:
 * a placeholder line goes in at once, progress shows under the text, the
 * image replaces the placeholder when it is on the server, and leaving
 * mid-upload asks first (a reload or a closed tab gets the browser's own
 * question). Uploads that finished or were cut off while the writer was
 * away are placed or resumed when the article is opened again.
 */
export function useBodyUploads(ed: Editor) {
  const uploads = useStore<{ items: BodyUpload[] }>({ items: [] });

  useVisibleTask$(
    ({ track, cleanup }) => {
      const id = track(() => ed.id.value);
      const ready = track(() => ed.ready.value);
      if (!id || !ready) return;
      // This editor's own layout: an editor of the same article opened after it has another one.
      const layout = document.querySelector('.editor-layout');
      // Changed in place: the list's rows are keyed by token, and a row kept by its key reads its item's fields.
      const show = (item: BodyUpload) => {
        const shown = uploads.items.find((it) => it.token === item.token);
        if (shown) Object.assign(shown, item);
        else uploads.items = [...uploads.items, item];
      };
      const stop = watchUploads(id, {
        showing: () => !!layout?.isConnected && new URLSearchParams(location.search).get('id') === id,
        progress(token, name, percent, note) {
          show({ token, name, percent, note, waiting: false });
        },
        waiting(token, name, message) {
          show({ token, name, percent: 0, note: 'waiting to be sent again', waiting: true });
          ed.error.value = `${message} It is kept in this browser and sent again once the server can be reached, or when you open this article again.`;
        },
        finished(token, ok, message) {
          uploads.items = uploads.items.filter((it) => it.token !== token);
          if (ok) ed.status.value = message;
          else ed.error.value = message;
          void ed.loadImages(id);
        },
        place(token, name, path) {
          const editor = bodyEditor.current;
          const text = editor ? editor.value : ed.body.value;
          const at = findPlaceholder(text, token);
          const image = path === null ? null : placedImage(at?.alt ?? placeholderAlt(name), name, path);
          // Not in the text (the placeholder was never saved, or the writer deleted it): the image goes at the end.
          const [from, to, insert] = at
            ? [at.from, at.to, image?.text ?? '']
            : [text.length, text.length, image ? `\n\n${image.text}\n` : ''];
          // The placeholder's alt text was selected to type over: the image's is, then.
          if (editor) editor.replaceRange(from, to, insert, at && image ? image.alt : undefined);
          else {
            ed.body.value = text.slice(0, from) + insert + text.slice(to);
            void ed.changed();
          }
        },
      });
      void resumeUploads(id);
      const onOnline = () => void resumeUploads(id);
      window.addEventListener('online', onOnline);
      cleanup(() => {
        window.removeEventListener('online', onOnline);
        stop();
      });
    },
    // On document ready, as the editor's load: a page scrolled down (a reload keeps the place) may never
    // show the element a visibility trigger waits for, and nothing would be resumed.
    { strategy: 'document-ready' },
  );

  usePreventNavigate$((url) => {
    if (uploadsInFlight() === 0) return false;
    if (!url) return true;
    return !window.confirm(
      'An image is still uploading. Leave anyway? It keeps uploading and is put into the text when you open this article again.',
    );
  });

  /** The draft is created first if need be; each file gets its placeholder, then is shrunk when large and sent. */
  const imagesIntoText = $(async (files: File[], at: number | null) => {
    if (!ed.id.value) {
      const input = document.getElementById('article-title') as HTMLInputElement | null;
      if (input && (await import('../../lib/title')).titleProblem(input.value)) {
        input.value = 'Untitled';
        ed.title.value = 'Untitled';
      }
      await ed.saveNow(true);
    }
    const id = ed.id.value;
    if (!id) return;
    // Shrunk like the Images card's uploads, by the same box (the remembered choice while the panel is closed).
    const box = document.getElementById('shrink-large') as HTMLInputElement | null;
    const shrinkOn = box ? box.checked : getShrinkSetting();
    let place = at;
    const started = files.map((file) => {
      const token = newUploadToken();
      if (!insertImageIntoBody(placeholderUrl(token), placeholderAlt(file.name), place))
        ed.body.value = `${ed.body.value}\n\n![${placeholderAlt(file.name)}](${placeholderUrl(token)})\n`;
      place = null;
      uploads.items = [...uploads.items, { token, name: file.name, percent: 0, note: 'Waiting', waiting: false }];
      return { token, file };
    });
    // One at a time, in order, as the Images card sends them.
    for (const { token, file } of started) await uploadIntoText(id, token, file, shrinkOn);
  });

  /** "Send again": what waits for an answer is sent now (the server may be back without the browser saying so). */
  const sendAgain = $(async () => {
    if (ed.id.value) await resumeUploads(ed.id.value);
  });

  return { uploads, imagesIntoText, sendAgain };
}
