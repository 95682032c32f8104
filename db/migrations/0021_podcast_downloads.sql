CREATE TABLE `podcast_downloads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`day` text NOT NULL,
	`episode_id` integer NOT NULL,
	`listener_id` text NOT NULL,
	`app` text NOT NULL,
	`counted` integer NOT NULL,
	`ts` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `podcast_downloads_unique` ON `podcast_downloads` (`day`,`episode_id`,`listener_id`);--> statement-breakpoint
CREATE INDEX `podcast_downloads_episode_idx` ON `podcast_downloads` (`episode_id`,`day`);