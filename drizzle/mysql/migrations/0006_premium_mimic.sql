CREATE TABLE `system_state` (
	`key` varchar(100) NOT NULL,
	`value` longtext NOT NULL,
	`version` bigint NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `system_state_key` PRIMARY KEY(`key`)
);
