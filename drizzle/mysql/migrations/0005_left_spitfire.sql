CREATE TABLE `activity_log` (
	`id` char(36) NOT NULL,
	`at` datetime(3) NOT NULL,
	`actor_type` varchar(16) NOT NULL,
	`actor_id` varchar(64),
	`action` varchar(64) NOT NULL,
	`subject_type` varchar(32),
	`subject_id` varchar(64),
	`ip` varchar(64),
	`details` longtext,
	`bytes` int NOT NULL,
	CONSTRAINT `activity_log_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `activity_log_usage` (
	`id` varchar(16) NOT NULL,
	`bytes` bigint NOT NULL,
	CONSTRAINT `activity_log_usage_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` char(36) NOT NULL,
	`name` varchar(255) NOT NULL,
	`prefix` varchar(32) NOT NULL,
	`secret_hash` char(64) NOT NULL,
	`scopes` varchar(255) NOT NULL,
	`created_by` char(36),
	`created_at` datetime(3) NOT NULL,
	`last_used_at` datetime(3),
	`expires_at` datetime(3),
	CONSTRAINT `api_keys_id` PRIMARY KEY(`id`),
	CONSTRAINT `api_keys_secret_hash_unique` UNIQUE(`secret_hash`)
);
--> statement-breakpoint
ALTER TABLE `articles` ADD `seo` text;--> statement-breakpoint
CREATE INDEX `activity_log_at_idx` ON `activity_log` (`at`);--> statement-breakpoint
CREATE INDEX `activity_log_action_id_idx` ON `activity_log` (`action`,`id`);--> statement-breakpoint
CREATE INDEX `activity_log_actor_id_id_idx` ON `activity_log` (`actor_id`,`id`);