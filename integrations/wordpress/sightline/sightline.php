<?php
/**
 * Plugin Name:       Sightline
 * Plugin URI:        https://github.com/sightline/sightline
 * Description:       Reports AI-crawler visits to your Sightline service, adds its visitor counter, and lets Sightline publish articles with their JSON-LD and SEO meta through the REST API.
 * Version:           0.1.0
 * Requires at least: 6.1
 * Requires PHP:      7.4
 * Author:            Sightline
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       sightline
 *
 * This program is free software; you can redistribute it and/or modify it under the terms of the GNU General Public
 * License as published by the Free Software Foundation; either version 2 of the License, or (at your option) any
 * later version. This program is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY; without
 * even the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public
 * License for more details.
 *
 * @package Sightline
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The plugin's version, read from the header above: the one place it is written (the zip build reads it there too).
 *
 * @return string
 */
function sightline_version() {
	static $version = null;
	if ( null === $version ) {
		$header  = get_file_data( __FILE__, array( 'Version' => 'Version' ), 'plugin' );
		$version = $header['Version'];
	}
	return $version;
}

require_once __DIR__ . '/includes/ai-crawlers.php';
require_once __DIR__ . '/includes/settings.php';
require_once __DIR__ . '/includes/crawler-report.php';
require_once __DIR__ . '/includes/tracking-tag.php';
require_once __DIR__ . '/includes/rest.php';
require_once __DIR__ . '/includes/json-ld.php';
