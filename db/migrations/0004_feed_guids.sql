ALTER TABLE `blog_posts` ADD `guid` text;--> statement-breakpoint
CREATE UNIQUE INDEX `blog_posts_guid_unique` ON `blog_posts` (`guid`);--> statement-breakpoint
ALTER TABLE `podcast_episodes` ADD `guid` text;--> statement-breakpoint
CREATE UNIQUE INDEX `podcast_episodes_guid_unique` ON `podcast_episodes` (`guid`);