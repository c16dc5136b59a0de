package io.github.flashstock.inventory.console;

import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;

/**
 * A MySQL named lock (one per dataId and group) that every instance takes around a change of the dataId: read it,
 * change one line, publish it, see it published. Nacos's compare-and-set alone does not serialise concurrent changes:
 * two publishes made from the same content can both pass it, and the later one drops the earlier one's line. A named
 * lock belongs to the connection, so both statements run in one transaction.
 */
@Mapper
interface SettingsLockMapper {

    /** 1 when taken, 0 when {@code seconds} passed first, null on an error. */
    @Select("SELECT GET_LOCK(#{name}, #{seconds})")
    Integer lock(@Param("name") String name, @Param("seconds") int seconds);

    @Select("SELECT RELEASE_LOCK(#{name})")
    Integer unlock(@Param("name") String name);
}
