CREATE TABLE `redirects` (
	`id` char(36) NOT NULL,
	`from_path` varchar(2000) NOT NULL,
	`from_hash` char(64) NOT NULL,
	`to_location` varchar(2000) NOT NULL,
	`status` int NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `redirects_id` PRIMARY KEY(`id`),
	CONSTRAINT `redirects_from_hash_unique` UNIQUE(`from_hash`)
);
