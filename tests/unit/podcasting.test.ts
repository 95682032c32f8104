// Pure pieces of the podcast feed and episode pages, without a server.
import { describe, expect, it } from 'vitest';
import { podcastGuidFor } from '#server/content/feeds.ts';
import { transcriptParagraphs } from '#server/content/transcripts.ts';
import { sniffText } from '#server/media/upload-policy.ts';

describe('the show GUID', () => {
  it('is the Podcasting 2.0 UUIDv5 of the feed URL without its scheme (the namespace’s own example)', () => {
    expect(podcastGuidFor('https://mp3s.nashownotes.com/pc20rss.xml')).toBe('917393e3-1b1e-5cef-ace4-edaa54e1f810');
    expect(podcastGuidFor('http://mp3s.nashownotes.com/pc20rss.xml/')).toBe('917393e3-1b1e-5cef-ace4-edaa54e1f810');
  });
});

describe('a transcript as text', () => {
  it('keeps the spoken lines of WebVTT cues, with speakers, and drops headers, notes, times and markup', () => {
    const vtt =
      'WEBVTT Kind: captions\n\nNOTE a note\n\nintro\n00:00.000 --> 00:04.000 align:start\n<v.loud Jordan>Welcome <b>back</b>.\n\n00:00:04.000 --> 00:00:09.000\n<v Sam>Fish &amp; chips,\nplease.\n';
    expect(transcriptParagraphs(vtt)).toEqual(['Jordan: Welcome back.', 'Sam: Fish & chips, please.']);
  });

  it('reads SRT the same way', () => {
    expect(transcriptParagraphs('1\r\n00:00:01,000 --> 00:00:02,500\r\nHello there.\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\n<i>Goodbye.</i>\r\n')).toEqual(['Hello there.', 'Goodbye.']);
  });
});

describe('transcript and chapters uploads', () => {
  it('pass only when their text is what their type says', () => {
    expect(sniffText('\uFEFFWEBVTT\n\n00:00.000 --> 00:01.000\nHi', 'text/vtt')).toBe('text/vtt');
    expect(sniffText('WEBVTTX', 'text/vtt')).toBeNull();
    expect(sniffText('1\n00:00:01,000 --> 00:00:02,000\nHi', 'application/x-subrip')).toBe('application/x-subrip');
    expect(sniffText('{"version":"1.2.0","chapters":[]}', 'application/json')).toBe('application/json');
    expect(sniffText('{"chapters":"no"}', 'application/json')).toBeNull();
    expect(sniffText('<html>', 'text/html')).toBeNull();
  });
});
