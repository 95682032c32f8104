CREATE TABLE `podcast_downloads_daily` (
	`day` text NOT NULL,
	`episode_id` integer NOT NULL,
	`app` text NOT NULL,
	`listeners` integer DEFAULT 0 NOT NULL,
	`downloads` integer DEFAULT 0 NOT NULL,
	`first7` integer DEFAULT 0 NOT NULL,
	`first30` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `episode_id`, `app`)
);
--> statement-breakpoint
CREATE INDEX `podcast_downloads_daily_episode_idx` ON `podcast_downloads_daily` (`episode_id`,`day`);