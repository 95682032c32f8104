// Which podcast app a download came from, by its user agent: a small table of the apps and
// services that make most podcast downloads, after the Open Podcast Analytics Working Group's
// user-agent list (opawg/user-agents-v2, which OP3 uses), and the prefetchers that download
// episodes for nobody in particular.
import Bowser from 'bowser';
import { isbot } from 'isbot';

const APPS: [RegExp, string][] = [
  [/^AppleCoreMedia\/|^Podcasts\/|iTunes\/|\bPodcasts\/\d/, 'Apple Podcasts'],
  [/^Spotify\/|Spotify\(/i, 'Spotify'],
  [/Overcast\//, 'Overcast'],
  [/Pocket ?Casts/i, 'Pocket Casts'],
  [/^Castro /, 'Castro'],
  [/CastBox/i, 'Castbox'],
  [/Podcast ?Addict/i, 'Podcast Addict'],
  [/AntennaPod/, 'AntennaPod'],
  [/Podverse/i, 'Podverse'],
  [/Player ?FM/i, 'Player FM'],
  [/iHeartRadio/i, 'iHeartRadio'],
  [/AmazonMusic|Amazon Music|^Echo\//, 'Amazon Music'],
  [/YouTubeMusic|youtube/i, 'YouTube'],
  [/Deezer/i, 'Deezer'],
  [/Fountain/, 'Fountain'],
  [/Podcast Guru/i, 'Podcast Guru'],
  // Podbean's app ('Podbean/Android App …'); its feed reader and importer are prefetchers (checked first, below).
  [/^Podbean\//, 'Podbean'],
];

/** Services that fetch every new episode (for search, transcripts or caching), not listeners. */
const PREFETCHERS =
  /Feed Parser|Podcast Sync|Podcast ?Index|PodcastIndex|Podchaser|PodbeanFeedReader|Podbean Importer|ListenNotes|Listen Notes|Podnews|Castopod|feedparser|Lavf\/|python-requests|curl\/|Wget\//i;

/** The app's name, or 'Bot' for a bot or a prefetcher (listed, never counted). */
export function podcastApp(userAgent: string): string {
  if (!userAgent || PREFETCHERS.test(userAgent)) return 'Bot';
  // Apps first: several name their site in their user agent ('+http://overcast.fm/'), which a generic bot list takes for a crawler.
  for (const [pattern, name] of APPS) if (pattern.test(userAgent)) return name;
  if (isbot(userAgent)) return 'Bot';
  const browser = Bowser.parse(userAgent).browser.name;
  return browser ? `Web browser (${browser})` : 'Other';
}
