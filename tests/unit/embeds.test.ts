// Videos in posts: only YouTube's privacy-enhanced player and Vimeo's survive the sanitiser,
// and feeds carry a link instead of the frame.
import { describe, expect, it } from 'vitest';
import { sanitizePostHtml, videosAsLinks } from '#server/html/sanitize.ts';

const YT = '<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="YouTube video" allowfullscreen></iframe>';
const VIMEO = '<iframe src="https://player.vimeo.com/video/76979871?dnt=1" title="Vimeo video"></iframe>';

describe('video frames in post HTML', () => {
  it('keeps the two allowed players, loaded lazily', () => {
    expect(sanitizePostHtml(YT)).toBe(
      '<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="YouTube video" allowfullscreen loading="lazy" referrerpolicy="strict-origin-when-cross-origin"></iframe>',
    );
    expect(sanitizePostHtml(VIMEO)).toContain('src="https://player.vimeo.com/video/76979871?dnt=1"');
  });

  it('drops any other frame, including youtube.com itself and script addresses', () => {
    for (const src of [
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://evil.example.com/embed',
      'javascript:alert(1)',
      'https://www.youtube-nocookie.com.evil.com/embed/x',
      '//player.vimeo.com/video/123456',
    ]) {
      expect(sanitizePostHtml(`<p>a</p><iframe src="${src}"></iframe><p>b</p>`)).toBe('<p>a</p><p>b</p>');
    }
    expect(sanitizePostHtml('<iframe srcdoc="<script>alert(1)</script>"></iframe>')).toBe('');
  });

  it('becomes a link to the video page in feeds', () => {
    expect(videosAsLinks(`<p>x</p>${sanitizePostHtml(YT)}`)).toBe('<p>x</p><p><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ">Watch the video</a></p>');
    expect(videosAsLinks(sanitizePostHtml(VIMEO))).toBe('<p><a href="https://vimeo.com/76979871">Watch the video</a></p>');
  });
});
