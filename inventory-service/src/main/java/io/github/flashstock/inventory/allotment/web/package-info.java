/** HTTP adapter of handovers (admin token). */
package io.github.flashstock.inventory.allotment.web;
