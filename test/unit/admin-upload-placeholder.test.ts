import { describe, expect, it } from 'vitest';
import {
  altFromFileName,
  findPlaceholder,
  newUploadToken,
  placedImage,
  placeholderAlt,
  placeholderUrl,
} from '../../admin-qwik/src/lib/upload-placeholder.js';

/** The line an image being uploaded holds in the text, and what replaces it (lib/upload-placeholder.ts). */
describe('admin upload placeholder', () => {
  const token = 'mx0abc123';
  const line = `![${placeholderAlt('kite.jpg')}](${placeholderUrl(token)})`;

  it('is found by its token wherever it stands, with the alt text there', () => {
    const text = `Intro.\n\n${line}\n\nMore.`;
    expect(findPlaceholder(text, token)).toEqual({ from: 8, to: 8 + line.length, alt: 'Uploading kite.jpg…' });
    expect(findPlaceholder(text.replace(placeholderAlt('kite.jpg'), 'A red kite'), token)?.alt).toBe('A red kite');
    expect(findPlaceholder(text, 'other')).toBeNull();
    // Another token that starts with this one is not it.
    expect(findPlaceholder(`![x](${placeholderUrl(`${token}9`)})`, token)).toBeNull();
  });

  it('becomes the image with the writer’s alt text, or one from the file name, and says where the alt is', () => {
    const path = '/static/uploadedImages/a.jpg';
    const fromName = placedImage(placeholderAlt('red-kite_2.jpg'), 'red-kite_2.jpg', path);
    expect(fromName.text).toBe(`![red kite 2](${path})`);
    expect(fromName.text.slice(...fromName.alt)).toBe('red kite 2');
    const typed = placedImage('A kite over the sea', 'kite.jpg', path);
    expect(typed.text).toBe(`![A kite over the sea](${path})`);
    expect(typed.text.slice(...typed.alt)).toBe('A kite over the sea');
    expect(altFromFileName('.jpg')).toBe('image');
  });

  it('makes tokens a placeholder can carry', () => {
    const a = newUploadToken();
    expect(a).toMatch(/^[0-9a-z]+$/);
    expect(findPlaceholder(`![x](${placeholderUrl(a)})`, a)).not.toBeNull();
  });
});
