CREATE TABLE `activity_log` (
	`id` text PRIMARY KEY NOT NULL,
	`at` integer NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text,
	`action` text NOT NULL,
	`subject_type` text,
	`subject_id` text,
	`ip` text,
	`details` text,
	`bytes` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `activity_log_at_idx` ON `activity_log` (`at`);--> statement-breakpoint
CREATE INDEX `activity_log_action_id_idx` ON `activity_log` (`action`,`id`);--> statement-breakpoint
CREATE INDEX `activity_log_actor_id_id_idx` ON `activity_log` (`actor_id`,`id`);--> statement-breakpoint
CREATE TABLE `activity_log_usage` (
	`id` text PRIMARY KEY NOT NULL,
	`bytes` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`secret_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`expires_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_secret_hash_unique` ON `api_keys` (`secret_hash`);--> statement-breakpoint
ALTER TABLE `articles` ADD `seo` text;