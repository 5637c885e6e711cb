CREATE TABLE `article_images` (
	`article_id` text NOT NULL,
	`image_id` text NOT NULL,
	PRIMARY KEY(`article_id`, `image_id`),
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`image_id`) REFERENCES `images`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `article_images_image_id_idx` ON `article_images` (`image_id`);--> statement-breakpoint
CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `purge_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`trigger` text NOT NULL,
	`dry_run` integer NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`status` text NOT NULL,
	`removed` text NOT NULL,
	`bytes_freed` integer NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `purge_runs_trigger_started_at_idx` ON `purge_runs` (`trigger`,`started_at`);--> statement-breakpoint
CREATE TABLE `purge_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`enabled` integer NOT NULL,
	`interval_hours` integer NOT NULL,
	`remove_duplicates` integer NOT NULL,
	`remove_orphans` integer NOT NULL,
	`orphan_grace_hours` integer NOT NULL,
	`dry_run` integer NOT NULL,
	`updated_at` integer NOT NULL
);
