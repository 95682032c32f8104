ALTER TABLE `blog_posts` ADD `scheduled_at` integer;--> statement-breakpoint
CREATE INDEX `blog_posts_scheduled_idx` ON `blog_posts` (`scheduled_at`);--> statement-breakpoint
CREATE INDEX `blog_posts_published_at_idx` ON `blog_posts` (`is_published`,`published_at`);--> statement-breakpoint
ALTER TABLE `podcast_episodes` ADD `published_at` integer;--> statement-breakpoint
ALTER TABLE `podcast_episodes` ADD `scheduled_at` integer;--> statement-breakpoint
CREATE INDEX `podcast_episodes_scheduled_idx` ON `podcast_episodes` (`scheduled_at`);--> statement-breakpoint
-- Lists and feeds order by when an item went public: give every published row that time.
UPDATE `blog_posts` SET `published_at` = `created_at` WHERE `is_published` = 1 AND `published_at` IS NULL;--> statement-breakpoint
UPDATE `podcast_episodes` SET `published_at` = `created_at` WHERE `is_published` = 1;
