// The video players a post may embed, for the editor and the sanitiser alike: YouTube's
// privacy-enhanced player and Vimeo's.
export const EMBED_HOSTS = ['www.youtube-nocookie.com', 'player.vimeo.com'] as const;
export const EMBED_PLAYER = /^https:\/\/(?:www\.youtube-nocookie\.com\/embed\/[\w-]{6,20}|player\.vimeo\.com\/video\/\d{4,12})(?:\?[\w=&%.-]*)?$/;
