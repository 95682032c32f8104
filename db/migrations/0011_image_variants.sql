CREATE TABLE `image_variants` (
	`url` text PRIMARY KEY NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`width` integer,
	`height` integer,
	`widths` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
