ALTER TABLE `podcast_episodes` ADD `season` integer;--> statement-breakpoint
ALTER TABLE `podcast_episodes` ADD `episode_type` text DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE `podcast_episodes` ADD `explicit` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `podcast_episodes` ADD `image_url` text;--> statement-breakpoint
ALTER TABLE `podcast_episodes` ADD `show_notes` text;--> statement-breakpoint
ALTER TABLE `podcast_episodes` ADD `transcript_url` text;--> statement-breakpoint
ALTER TABLE `podcast_episodes` ADD `chapters_url` text;