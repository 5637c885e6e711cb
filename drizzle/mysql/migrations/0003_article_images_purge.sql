CREATE TABLE `article_images` (
	`article_id` char(36) NOT NULL,
	`image_id` char(36) NOT NULL,
	CONSTRAINT `article_images_pk` PRIMARY KEY(`article_id`,`image_id`)
);
--> statement-breakpoint
CREATE TABLE `leases` (
	`name` varchar(100) NOT NULL,
	`holder` varchar(100) NOT NULL,
	`expires_at` datetime(3) NOT NULL,
	CONSTRAINT `leases_name` PRIMARY KEY(`name`)
);
--> statement-breakpoint
CREATE TABLE `purge_runs` (
	`id` char(36) NOT NULL,
	`trigger` varchar(16) NOT NULL,
	`dry_run` boolean NOT NULL,
	`started_at` datetime(3) NOT NULL,
	`finished_at` datetime(3),
	`status` varchar(16) NOT NULL,
	`removed` longtext NOT NULL,
	`bytes_freed` bigint NOT NULL,
	`error` text,
	CONSTRAINT `purge_runs_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `purge_settings` (
	`id` varchar(32) NOT NULL,
	`enabled` boolean NOT NULL,
	`interval_hours` int NOT NULL,
	`remove_duplicates` boolean NOT NULL,
	`remove_orphans` boolean NOT NULL,
	`orphan_grace_hours` int NOT NULL,
	`dry_run` boolean NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `purge_settings_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
ALTER TABLE `article_images` ADD CONSTRAINT `article_images_article_id_articles_id_fk` FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `article_images` ADD CONSTRAINT `article_images_image_id_images_id_fk` FOREIGN KEY (`image_id`) REFERENCES `images`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX `article_images_image_id_idx` ON `article_images` (`image_id`);--> statement-breakpoint
CREATE INDEX `purge_runs_trigger_started_at_idx` ON `purge_runs` (`trigger`,`started_at`);