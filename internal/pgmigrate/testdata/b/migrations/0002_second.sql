INSERT INTO pgmigrate_t VALUES (2);
